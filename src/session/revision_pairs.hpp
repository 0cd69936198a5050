// The steps `benchkit ab` and each step of `benchkit bisect` share: a revision prepared with the
// observer told how it goes, the bench binaries two builds have in common, the request that runs
// them side by side, and the note that says how they were measured.
#pragma once

#include <string>
#include <vector>

#include "session/ab.hpp"
#include "session/plans.hpp"
#include "session/revisions.hpp"
#include "session/workshop.hpp"

namespace benchkit::session {

// Checks out and builds `revision` through `workshop`, telling `observer` each step and how the
// build went (built, or kept from an earlier run).
model::Result<Prepared> prepare_told(Workshop& workshop, const std::string& root,
                                     const Revision& revision, const vcs::Checkout& checkout,
                                     const vcs::BuildRecipe& recipe, Observer& observer);

// The recipe for the other revisions once one is built: the same bench targets (so that a
// target another revision does not have is named as such).
vcs::BuildRecipe recipe_like(const vcs::BuildRecipe& recipe, const Prepared& built);

// The executables of the bench targets both builds have, by target.
std::vector<BinaryPair> binary_pairs(const Prepared& base, const Prepared& candidate);

// Which executables each side ran, in its run's context, as `compare OLD NEW` records them
// (`benchkit merge` refuses the comparisons of shards measured by different builds): for one
// bench target, its binary's path and SHA-256; for several, the SHA-256 of their
// "TARGET SHA-256" lines in the pairs' order, and no path. A side whose binaries cannot all be
// read keeps the context it had.
void identify_builds(const std::vector<BinaryPair>& pairs, Context& baseline, Context& candidate);

// The request that runs two builds' bench binaries as `settings` say, its progress and failures
// told to `observer` (which must outlive it).
AbRequest pair_request(const PairSettings& settings, Observer& observer);

// How two builds were compared: checked out and built (`description`), then side by side in
// `rounds` rounds ("10" or "10-40"; `gbench`: Google Benchmark binaries among them), or counted
// (Mode::instructions).
std::string pairs_note(const Prepared& base, const Prepared& candidate,
                       const std::string& description, const std::string& rounds,
                       const PairSettings& settings, Mode mode, bool gbench = false);

}  // namespace benchkit::session
