#include "formats/profile_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace benchkit::formats {
namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::optional<double> parse_number(std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Callgrind's name compression: "(12) name" defines id 12, "(12)" refers to it.
class Names {
 public:
  std::string resolve(std::string_view text) {
    text = trim(text);
    if (!text.starts_with('(')) return std::string(text);
    const auto close = text.find(')');
    if (close == std::string_view::npos) return std::string(text);
    const std::string id(text.substr(1, close - 1));
    const std::string_view rest = trim(text.substr(close + 1));
    if (!rest.empty()) names_[id] = std::string(rest);
    const auto found = names_.find(id);
    return found == names_.end() ? std::string(text) : found->second;
  }

 private:
  std::map<std::string, std::string> names_;
};

// A demangled function's qualified name without the return type that demanglers print for
// template functions: "std::vector<> make_keys<>(int)" is make_keys<>, a user's function, not
// the library's; "void benchkit::Bencher::iter<>(...)" is benchkit::Bencher::iter<>. Spaces
// inside template arguments, and the names of operators ("operator new", "operator<<"), are not
// the return type's end.
std::string_view qualified_name(std::string_view function) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < function.size(); ++i) {
    if (depth == 0 && function.substr(i).starts_with("operator") &&
        (i == 0 || function[i - 1] == ' ' || function[i - 1] == ':')) {
      i += 8;
      if (function.substr(i).starts_with("()")) {
        ++i;
      } else if (i < function.size() && function[i] == ' ') {
        while (i + 1 < function.size() && function[i + 1] != '(') ++i;  // new, delete, a type
      } else {
        while (i + 1 < function.size() &&
               std::string_view("<>=!+-*/%^&|~[],").find(function[i + 1]) !=
                   std::string_view::npos) {
          ++i;
        }
      }
      continue;
    }
    const char c = function[i];
    if (c == '<') ++depth;
    if (c == '>' && depth > 0) --depth;
    if (depth == 0 && c == '(') break;
    if (depth == 0 && c == ' ') start = i + 1;
  }
  return function.substr(start);
}

// A frame of the C++ library or the allocator, which an allocation passes through on its way to
// the code that asked for it.
bool library_frame(const std::string& function, const std::string& location) {
  static const std::regex library_file(
      R"(^(stl_[a-z_]+\.h|[a-z_]+\.tcc|new_allocator\.h|alloc_traits\.h|allocator\.h|)"
      R"(basic_string\.h|hashtable[a-z_]*\.h|unique_ptr\.h|shared_ptr[a-z_]*\.h|)"
      R"(unordered_[a-z]+\.h|std_function\.h|move\.h|invoke\.h|char_traits\.h|)"
      R"(vg_replace_malloc\.c|new_op\.cc|new_opv\.cc|new_opnt\.cc)(:\d+)?$)");
  const std::string_view name = qualified_name(function);
  if (name.starts_with("std::") || name.starts_with("__gnu_cxx::") ||
      name.starts_with("operator new") || name.starts_with("malloc") ||
      name.starts_with("calloc") || name.starts_with("realloc") ||
      name.starts_with("aligned_alloc") || name.starts_with("posix_memalign") ||
      function == "???") {
    return true;
  }
  const std::string file = location.substr(location.rfind('/') + 1);
  return std::regex_match(file, library_file);
}

// benchkit's call of a benchmark's routine: the function-pointer thunk that
// benchkit::Bencher::run_routine makes, into which the compiler inlines the benchmark's lambda
// and what the lambda calls inline.
bool routine_thunk(const std::string& function) {
  return qualified_name(function).starts_with("benchkit::Bencher::run_routine<");
}

// A frame of benchkit's harness between the routine and the engine (the thunk's inlined
// parts, with debug information): not where the benchmark allocated.
bool harness_frame(const std::string& location) {
  const std::string file = location.substr(location.rfind('/') + 1);
  return file.starts_with("bencher.hpp");
}

// The allocation site of a stack, innermost frame first: the first frame that is neither the
// library, the allocator nor the harness; the routine itself (kRoutineSite) when the first such
// frame is benchkit's thunk, whose code is the inlined routine; nothing when no frame fits.
struct SiteFrame {
  std::string function;
  std::string location;
};
std::optional<SiteFrame> allocation_site(const std::vector<SiteFrame>& frames) {
  for (const SiteFrame& frame : frames) {
    if (routine_thunk(frame.function)) return SiteFrame{std::string(kRoutineSite), ""};
    if (library_frame(frame.function, frame.location) || harness_frame(frame.location)) continue;
    return frame;
  }
  return std::nullopt;
}

// Reads a callgrind profile line by line (comments and blank lines left out by the caller):
// the events line, the position and name lines that say where the costs that follow belong,
// and the cost lines, summed per function, per line and per call arc.
class CallgrindReader {
 public:
  explicit CallgrindReader(const std::string& event) : event_(event) {}

  void read(std::string_view line) {
    if (line.starts_with("events:")) {
      read_events(line.substr(7));
      return;
    }
    const char first = line.front();
    const bool cost_line =
        (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '*';
    if (cost_line) {
      read_cost(line);
      return;
    }
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) return;  // "summary:", "cmd:" and other headers
    read_position(line.substr(0, equals), line.substr(equals + 1));
  }

  bool saw_events() const { return saw_events_; }
  bool has_event() const { return column_.has_value(); }

  // The functions with a cost, the most expensive first, each at its hottest line; the arcs.
  CallProfile profile() const {
    CallProfile profile;
    for (const auto& [name, function] : by_name_) {
      if (function.exclusive <= 0.0 && function.called <= 0.0) continue;
      profile.total += function.exclusive;
      profile.functions.push_back(profile_function(name, function));
    }
    for (auto& function : profile.functions) {
      function.inclusive = std::min(function.inclusive, profile.total);  // recursion counts twice
    }
    std::stable_sort(profile.functions.begin(), profile.functions.end(),
                     [](const auto& a, const auto& b) { return a.exclusive > b.exclusive; });
    for (const auto& [arc, cost] : arcs_) {
      if (cost > 0.0) profile.calls.push_back({arc.first, arc.second, cost});
    }
    return profile;
  }

 private:
  struct Function {
    std::string file;
    double exclusive = 0.0;
    double called = 0.0;  // cost of its calls out
    std::map<std::pair<std::string, long>, double> lines;
  };

  // "events: Ir Dr ...": which column holds the event asked for.
  void read_events(std::string_view names) {
    std::istringstream words{std::string(names)};
    std::size_t index = 0;
    for (std::string word; words >> word; ++index) {
      if (word == event_) column_ = index;
    }
    saw_events_ = true;
  }

  // A KEY=VALUE line: the object, file, function or callee the next cost lines belong to.
  void read_position(std::string_view key, std::string_view value) {
    if (key == "ob" || key == "cob") {
      objects_.resolve(value);
    } else if (key == "fl") {
      current_file_ = position_file_ = files_.resolve(value);
    } else if (key == "fi" || key == "fe") {
      position_file_ = files_.resolve(value);
    } else if (key == "fn") {
      current_ = functions_.resolve(value);
      by_name_[current_].file = current_file_;
      position_file_ = current_file_;
    } else if (key == "cfi" || key == "cfl") {
      files_.resolve(value);
    } else if (key == "cfn") {
      callee_ = functions_.resolve(value);
    } else if (key == "calls") {
      next_is_call_ = true;
    }
  }

  // A cost line: a position, then the costs of the events in order; the cost of a call when a
  // calls= line came before it.
  void read_cost(std::string_view line) {
    std::istringstream words{std::string(line)};
    std::string position;
    words >> position;
    long at = last_position_;
    if (position == "*") {
    } else if (position.front() == '+' || position.front() == '-') {
      at = last_position_ + std::strtol(position.c_str(), nullptr, 10);
    } else {
      at = std::strtol(position.c_str(), nullptr, 10);
    }
    last_position_ = at;
    double cost = 0.0;
    std::size_t index = 0;
    for (std::string word; words >> word; ++index) {
      if (column_ && index == *column_) cost = std::strtod(word.c_str(), nullptr);
    }
    if (current_.empty()) return;
    Function& function = by_name_[current_];
    if (next_is_call_) {
      next_is_call_ = false;
      function.called += cost;
      arcs_[{current_, callee_}] += cost;
    } else {
      function.exclusive += cost;
      function.lines[{position_file_, at}] += cost;
    }
  }

  // A function of the profile, placed at its hottest line.
  static model::ProfileFunction profile_function(const std::string& name,
                                                 const Function& function) {
    model::ProfileFunction out;
    out.name = name;
    out.file = function.file;
    out.exclusive = function.exclusive;
    out.inclusive = function.exclusive + function.called;
    double hottest = -1.0;
    for (const auto& [where, cost] : function.lines) {
      if (cost > hottest) {
        hottest = cost;
        out.file = where.first.empty() ? function.file : where.first;
        out.line = static_cast<int>(where.second);
      }
    }
    if (out.file == "???") out.file.clear();
    return out;
  }

  const std::string& event_;
  Names objects_, files_, functions_;
  std::optional<std::size_t> column_;
  std::map<std::string, Function> by_name_;
  std::map<std::pair<std::string, std::string>, double> arcs_;
  std::string current_;
  std::string current_file_;   // fl= of the current function
  std::string position_file_;  // fi= / fe= change where the cost lines are
  std::string callee_;
  bool next_is_call_ = false;
  long last_position_ = 0;
  bool saw_events_ = false;
};

}  // namespace

model::Result<CallProfile> parse_callgrind_profile(std::string_view text,
                                                   const std::string& event) {
  CallgrindReader reader(event);
  for (std::string_view line : lines_of(text)) {
    if (line.empty() || line.front() == '#') continue;
    reader.read(line);
  }
  if (!reader.saw_events()) {
    return model::Error{"not a callgrind profile: it has no \"events:\" line",
                        model::ErrorKind::input};
  }
  if (!reader.has_event()) {
    return model::Error{fmt::format("the callgrind profile has no event {}", event),
                        model::ErrorKind::input};
  }
  return reader.profile();
}

std::vector<model::FoldedStack> fold_call_graph(const CallProfile& profile, std::size_t max_depth,
                                                double min_share) {
  std::map<std::string, const model::ProfileFunction*> functions;
  for (const auto& function : profile.functions) functions[function.name] = &function;
  std::map<std::string, std::vector<const CallProfile::Call*>> callees;
  std::map<std::string, double> called_in;
  for (const auto& call : profile.calls) {
    callees[call.caller].push_back(&call);
    if (call.caller != call.callee) called_in[call.callee] += call.cost;
  }
  std::vector<model::FoldedStack> stacks;
  const double smallest = profile.total * min_share;
  std::vector<std::string> path;
  std::function<void(const std::string&, double)> expand = [&](const std::string& name,
                                                               double value) {
    const auto found = functions.find(name);
    if (found == functions.end() || value < smallest) return;
    const model::ProfileFunction& function = *found->second;
    path.push_back(name);
    const double scale = function.inclusive > 0.0 ? value / function.inclusive : 0.0;
    double explained = function.exclusive * scale;
    if (path.size() < max_depth) {
      for (const CallProfile::Call* call : callees[name]) {
        if (std::find(path.begin(), path.end(), call->callee) != path.end()) continue;
        const double share = call->cost * scale;
        if (share < smallest) {
          explained += share;  // too small to draw: left in this frame
          continue;
        }
        expand(call->callee, share);
      }
    } else {
      explained = value;
    }
    if (explained >= smallest) stacks.push_back({path, explained});
    path.pop_back();
  };
  for (const auto& function : profile.functions) {
    const double root = function.inclusive - called_in[function.name];
    if (root > smallest) expand(function.name, root);
  }
  return stacks;
}

model::Result<HeapPeak> parse_massif_peak(std::string_view text) {
  const std::vector<std::string_view> lines = lines_of(text);
  std::size_t peak = lines.size();
  double heap = 0.0;
  double last_heap = 0.0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("mem_heap_B=")) {
      last_heap = parse_number(lines[i].substr(11)).value_or(0.0);
    }
    if (lines[i] == "heap_tree=peak") {
      peak = i;
      heap = last_heap;
    }
  }
  if (peak == lines.size()) {
    return model::Error{
        "massif's output has no peak snapshot (heap_tree=peak): the process made "
        "no heap allocation, or massif did not finish",
        model::ErrorKind::input};
  }
  HeapPeak result;
  result.bytes = heap;
  // The tree: "nK: BYTES ADDR: FUNCTION (LOCATION)", children indented one more space; each
  // leaf's bytes belong to the stack from the leaf up to the root (innermost first).
  struct Frame {
    std::string function;
    std::string location;
  };
  std::vector<Frame> stack;
  std::map<std::pair<std::string, std::string>, model::AllocationSite> sites;
  static const std::regex node(R"(^( *)n(\d+): (\d+) (.*)$)");
  for (std::size_t i = peak + 1; i < lines.size(); ++i) {
    const std::string line(lines[i]);
    std::smatch match;
    if (!std::regex_match(line, match, node)) break;
    const std::size_t depth = match[1].length();
    const bool leaf = match[2] == "0";
    const double bytes = std::strtod(match[3].str().c_str(), nullptr);
    std::string rest = match[4];
    Frame frame;
    if (const auto colon = rest.find(": "); rest.starts_with("0x") && colon != std::string::npos) {
      rest = rest.substr(colon + 2);
      const auto open = rest.rfind(" (");
      frame.function = open == std::string::npos ? rest : rest.substr(0, open);
      if (open != std::string::npos) {
        frame.location = rest.substr(open + 2, rest.size() - open - 3);
        if (frame.location.starts_with("in ")) frame.location = frame.location.substr(3);
      }
    } else {
      frame.function = rest;  // the root, or "in N places, all below massif's threshold"
    }
    stack.resize(depth);
    stack.push_back(frame);
    if (!leaf || depth == 0 || bytes <= 0.0) continue;
    // The site: the innermost frame that is neither the library, the allocator nor the
    // harness (allocation_site).
    std::vector<const Frame*> frames;
    std::vector<SiteFrame> candidates;
    for (std::size_t d = 1; d < stack.size(); ++d) {
      if (!(stack[d].function.starts_with("in ") &&
            stack[d].function.find("places") != std::string::npos)) {
        frames.push_back(&stack[d]);
        candidates.push_back({stack[d].function, stack[d].location});
      }
    }
    std::optional<SiteFrame> site = allocation_site(candidates);
    if (!site && !candidates.empty()) site = candidates.front();
    const std::string function = site ? site->function : "(below massif's threshold)";
    const std::string location = site ? site->location : "";
    model::AllocationSite& entry = sites[{function, location}];
    entry.function = function;
    entry.location = location;
    entry.bytes += bytes;
    if (entry.stack.empty()) {
      for (const Frame* f : frames) {
        entry.stack.push_back(f->function + (f->location.empty() ? "" : " (" + f->location + ")"));
      }
    }
  }
  for (auto& [key, site] : sites) result.sites.push_back(std::move(site));
  std::stable_sort(result.sites.begin(), result.sites.end(),
                   [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  return result;
}

model::Result<std::vector<model::SystemCallRow>> parse_strace_region(std::string_view text,
                                                                     std::string_view begin,
                                                                     std::string_view end) {
  bool inside = false;
  bool began = false;
  bool ended = false;
  std::map<std::string, model::SystemCallRow> rows;
  static const std::regex time_at_end(R"(<(\d+\.\d+)>\s*$)");
  for (std::string_view raw : lines_of(text)) {
    std::string_view line = trim(raw);
    if (!inside) {
      if (line.find(begin) != std::string_view::npos) inside = began = true;
      continue;
    }
    if (line.find(end) != std::string_view::npos) {
      ended = true;
      break;
    }
    // "PID name(args) = result <secs>", "PID name(args <unfinished ...>",
    // "PID <... name resumed>...) = result <secs>", "PID --- SIGNAL ...", "PID +++ exited ...".
    const auto space = line.find(' ');
    if (space != std::string_view::npos && !line.empty() && line.front() >= '0' &&
        line.front() <= '9') {
      line = trim(line.substr(space + 1));
    }
    if (line.starts_with("---") || line.starts_with("+++")) continue;
    if (line.find("<unfinished ...>") != std::string_view::npos) continue;
    std::string name;
    if (line.starts_with("<... ")) {
      const auto resumed = line.find(" resumed>");
      if (resumed == std::string_view::npos) continue;
      name = std::string(line.substr(5, resumed - 5));
    } else {
      const auto open = line.find('(');
      if (open == std::string_view::npos || open == 0) continue;
      name = std::string(line.substr(0, open));
    }
    model::SystemCallRow& row = rows[name];
    row.name = name;
    ++row.calls;
    const auto equals = line.rfind(") = ");
    if (equals != std::string_view::npos && line.substr(equals + 4).starts_with("-1 ")) {
      ++row.errors;
    }
    std::match_results<std::string_view::const_iterator> match;
    if (std::regex_search(line.begin(), line.end(), match, time_at_end)) {
      row.seconds += std::strtod(match[1].str().c_str(), nullptr);
    }
  }
  if (!began || !ended) {
    return model::Error{
        fmt::format("the strace output has no {} of the measured region (the line with {}): the "
                    "bench binary did not reach it, or is not built with a benchkit that marks it",
                    began ? "end" : "start", began ? end : begin),
        model::ErrorKind::failed};
  }
  std::vector<model::SystemCallRow> table;
  for (auto& [name, row] : rows) table.push_back(std::move(row));
  std::stable_sort(table.begin(), table.end(),
                   [](const auto& a, const auto& b) { return a.calls > b.calls; });
  return table;
}

SampledProfile parse_perf_script(std::string_view text) {
  SampledProfile profile;
  std::map<std::vector<std::string>, double> folded;
  std::map<std::string, std::pair<double, double>> costs;  // exclusive, inclusive
  std::vector<std::string> frames;                         // innermost first
  auto flush = [&] {
    if (frames.empty()) return;
    std::vector<std::string> root_first(frames.rbegin(), frames.rend());
    folded[root_first] += 1.0;
    profile.total += 1.0;
    costs[frames.front()].first += 1.0;
    std::set<std::string> seen;
    for (const std::string& frame : frames) {
      if (seen.insert(frame).second) costs[frame].second += 1.0;
    }
    frames.clear();
  };
  for (std::string_view raw : lines_of(text)) {
    if (trim(raw).empty()) {
      flush();
      continue;
    }
    if (raw.front() != '\t' && raw.front() != ' ') {
      flush();  // a sample's header line
      continue;
    }
    // "\tADDRESS SYMBOL+0xOFFSET (OBJECT)"
    std::string_view line = trim(raw);
    const auto space = line.find(' ');
    if (space == std::string_view::npos) continue;
    std::string_view symbol = line.substr(space + 1);
    const auto object = symbol.rfind(" (");
    if (object != std::string_view::npos) symbol = symbol.substr(0, object);
    if (const auto plus = symbol.rfind("+0x"); plus != std::string_view::npos) {
      symbol = symbol.substr(0, plus);
    }
    frames.emplace_back(symbol);
  }
  flush();
  for (auto& [stack, value] : folded) profile.stacks.push_back({stack, value});
  for (const auto& [name, cost] : costs) {
    profile.functions.push_back({name, "", 0, cost.first, cost.second});
  }
  std::stable_sort(profile.functions.begin(), profile.functions.end(),
                   [](const auto& a, const auto& b) { return a.exclusive > b.exclusive; });
  return profile;
}

std::optional<double> parse_scaled_number(std::string_view text) {
  text = trim(text);
  double scale = 1.0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
        scale = 1e3;
        break;
      case 'M':
        scale = 1e6;
        break;
      case 'G':
        scale = 1e9;
        break;
      case 'T':
        scale = 1e12;
        break;
      case 'B':
        break;
      default:
        scale = 0.0;
    }
    if (scale != 0.0) text.remove_suffix(1);
    if (scale == 0.0) scale = 1.0;
  }
  const auto value = parse_number(text);
  if (!value) return std::nullopt;
  return *value * scale;
}

HeaptrackSummary parse_heaptrack_print(std::string_view text) {
  HeaptrackSummary summary;
  const std::vector<std::string_view> lines = lines_of(text);
  bool in_peaks = false;
  std::optional<model::AllocationSite> site;
  std::vector<SiteFrame> frames;  // the site's stack, innermost first, with their locations
  int group = 0;  // 0: the block's own frames; 1: its first group of callers; 2: later groups
  // The indent of the block's own frames: 0 when heaptrack_print merged the backtraces by their
  // innermost frames (its default), 2 with --merge-backtraces=0 (one whole stack a block).
  std::size_t base = std::string_view::npos;
  auto finish = [&] {
    if (site) {
      const std::optional<SiteFrame> chosen = allocation_site(frames);
      if (chosen) {
        site->function = chosen->function;
        site->location = chosen->location;
      } else if (!site->stack.empty()) {
        site->function = site->stack.front();
      }
      summary.peak_sites.push_back(std::move(*site));
    }
    site.reset();
    frames.clear();
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (line.starts_with("peak heap memory consumption:")) {
      summary.peak_bytes = parse_scaled_number(line.substr(29));
    } else if (line.starts_with("calls to allocation functions:")) {
      const std::string_view rest = trim(line.substr(30));
      summary.allocation_calls = parse_number(rest.substr(0, rest.find(' ')));
    }
    if (line == "PEAK MEMORY CONSUMERS") {
      in_peaks = true;
      continue;
    }
    if (!in_peaks || line.empty()) continue;
    if (std::all_of(line.begin(), line.end(),
                    [](char c) { return (c >= 'A' && c <= 'Z') || c == ' '; })) {
      finish();
      in_peaks = false;
      continue;
    }
    // "400.00K peak memory consumed over 100 calls from", the innermost frames (a function,
    // "  at FILE:LINE", "  in OBJECT"), then groups of callers, each headed "N consumed over M
    // calls from:" and indented by four.
    if (const auto consumed = line.find(" peak memory consumed over ");
        consumed != std::string_view::npos) {
      finish();
      site = model::AllocationSite{};
      site->bytes = parse_scaled_number(line.substr(0, consumed)).value_or(0.0);
      group = 0;
      base = std::string_view::npos;
      continue;
    }
    if (!site) continue;
    if (line.front() != ' ' && line.find(" calls from:") != std::string_view::npos) {
      ++group;
      continue;
    }
    const std::string_view content = trim(line);
    if (content.starts_with("at ") || content.starts_with("in ") || group > 1) continue;
    if (content.starts_with("and ") && content.ends_with(" other places")) continue;
    const std::size_t indent = line.find_first_not_of(' ');
    if (base == std::string_view::npos) base = indent;
    if ((group == 0 && indent != base) || (group == 1 && indent != base + 4)) continue;
    const std::string function(content);
    site->stack.push_back(function);
    if (function.starts_with("0x")) continue;  // no symbol: never a site
    // heaptrack_print lists each inlined function as a frame of its own ("  at FILE:LINE"
    // under it) when the binary has debug information.
    std::string location;
    if (i + 1 < lines.size() && trim(lines[i + 1]).starts_with("at ")) {
      location = std::string(trim(lines[i + 1]).substr(3));
    }
    frames.push_back({function, std::move(location)});
  }
  finish();
  // Unmerged, one site can head several blocks (its stacks from different callers): one row.
  std::vector<model::AllocationSite> merged;
  for (model::AllocationSite& site : summary.peak_sites) {
    const auto same = std::find_if(merged.begin(), merged.end(), [&](const auto& other) {
      return other.function == site.function && other.location == site.location;
    });
    if (same == merged.end()) {
      merged.push_back(std::move(site));
    } else {
      same->bytes += site.bytes;
    }
  }
  std::stable_sort(merged.begin(), merged.end(),
                   [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  summary.peak_sites = std::move(merged);
  return summary;
}

}  // namespace benchkit::formats
