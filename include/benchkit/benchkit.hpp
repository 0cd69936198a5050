// benchkit: performance measurement people can trust. The one header a benchmark includes.
#pragma once

#include "benchkit/bench.hpp"
#include "benchkit/bencher.hpp"
#include "benchkit/black_box.hpp"
#include "benchkit/data.hpp"
#include "benchkit/registry.hpp"
#include "benchkit/result.hpp"
#include "benchkit/scenario.hpp"
