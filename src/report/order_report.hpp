// The counted-order check of `benchkit noise --mode instructions` (analysis/order_dependence.hpp)
// as a table of the counts in both orders and what moved, or as a JSON document.
#pragma once

#include <string>

#include "analysis/order_dependence.hpp"
#include "model/format.hpp"

namespace benchkit::report {

// json: the benchkit_order_dependence document (version 1); any other format: the table and what
// an order-dependent count means.
std::string render_order_report(const analysis::OrderReport& report, model::Format format);

}  // namespace benchkit::report
