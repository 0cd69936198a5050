// What `benchkit run` will run: commands expanded over their parameters, and the order of the
// runs within each round.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/error.hpp"

namespace benchkit::process {

// A parameter and its values, in order: from --parameter-list NAME a,b,c or
// --parameter-scan NAME MIN MAX [--parameter-step-size D].
struct Parameter {
  std::string name;
  std::vector<std::string> values;
};

// MIN, MIN+D, ... up to MAX (inclusive, within a rounding tolerance). Integers print as
// integers; decimals with as few digits as the step needs. Errors: D <= 0, MAX < MIN, more than
// 10,000 values.
model::Result<Parameter> scan_parameter(const std::string& name, double min, double max,
                                        double step);

// "a,b,c" split on commas (empty items are errors).
model::Result<Parameter> list_parameter(const std::string& name, const std::string& values);

// One command as given: its argument vector, or a shell string with --shell.
struct CommandSpec {
  std::string name;               // --name; empty: named after the command
  std::vector<std::string> argv;  // spawned directly
  std::string shell_command;      // run as SHELL -c TEXT when shell is set
  std::vector<std::string> env;   // KEY=VALUE
};

// One benchmark: a command with one combination of parameter values substituted.
struct PlannedCommand {
  std::string name;  // unique within the plan
  std::map<std::string, std::string> params;
  std::vector<std::string> argv;  // what is spawned (the shell and its -c when using one)
  std::string display;            // the command as a person would type it
  std::vector<std::string> env;
  std::size_t command_index = 0;  // which CommandSpec it came from
};

// Replaces every {NAME} of a parameter in `text`; other braces are left alone.
std::string substitute(const std::string& text, const std::map<std::string, std::string>& values);

// Every command × every combination of parameter values (cartesian, the first parameter
// varying slowest). `shell` is empty to spawn directly. Names: the --name (with {NAME}
// substituted, or "/NAME=value" appended when it has no placeholder), else the command with its
// values substituted. Errors: a parameter named twice, a placeholder with no parameter in a
// command while parameters exist, or two benchmarks with the same name.
model::Result<std::vector<PlannedCommand>> expand(const std::vector<CommandSpec>& commands,
                                                  const std::vector<Parameter>& parameters,
                                                  const std::string& shell);

enum class Order {
  alternate,  // A B C, then C B A, then A B C...: each command as often early as late
  random,     // a seeded shuffle per round
};

// The order in which `count` benchmarks run in `round` (0-based).
std::vector<std::size_t> round_order(std::size_t count, std::size_t round, Order order,
                                     std::uint64_t seed);

// Splits a command line into words the way a POSIX shell would for simple commands: blanks
// separate words, single and double quotes and backslashes group them. No expansion of
// variables, globs or operators (those need --shell). Errors on an unterminated quote.
model::Result<std::vector<std::string>> split_words(const std::string& text);

}  // namespace benchkit::process
