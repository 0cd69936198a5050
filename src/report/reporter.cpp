#include "report/reporter.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <span>
#include <stdexcept>

#include "analysis/compare.hpp"
#include "model/confidence.hpp"
#include "report/parts.hpp"

namespace benchkit::report {

std::unique_ptr<Reporter> make_console_reporter(Options options);
std::unique_ptr<Reporter> make_json_reporter();
std::unique_ptr<Reporter> make_markdown_reporter();
std::unique_ptr<Reporter> make_csv_reporter();
std::unique_ptr<Reporter> make_html_reporter();
std::unique_ptr<Reporter> make_junit_reporter();
std::unique_ptr<Reporter> make_gbench_reporter();
std::unique_ptr<Reporter> make_bmf_reporter();
std::unique_ptr<Reporter> make_github_action_reporter();

std::string formats_accepting(const Document& document) {
  std::vector<Format> accepted;
  for (const Format format : model::kFormats) {
    if (make_reporter(format)->refusal(document).empty()) accepted.push_back(format);
  }
  return model::format_choices(accepted);
}

std::optional<model::Error> refuse_comparison_format(Format format) {
  const analysis::Comparison none;
  const Document document{.comparison = &none};
  const std::string refused = make_reporter(format)->refusal(document);
  if (refused.empty()) return std::nullopt;
  return model::Error{fmt::format("--format {}: {}; choose {} for a comparison", to_string(format),
                                  refused, formats_accepting(document)),
                      model::ErrorKind::usage};
}

std::optional<model::Error> format_refusal(Format format, const Document& document) {
  const std::string refused = make_reporter(format)->refusal(document);
  if (refused.empty()) return std::nullopt;
  return model::Error{
      fmt::format("--format {}: {}; choose {} here, and write a run's results in {} with "
                  "benchkit report FILE --format {}",
                  to_string(format), refused, formats_accepting(document), to_string(format),
                  to_string(format)),
      model::ErrorKind::usage};
}

std::optional<model::Error> comparison_file_refusal(Format format, const std::string& file) {
  const analysis::Comparison none;
  const Document document{.comparison = &none};
  const std::string refused = make_reporter(format)->refusal(document);
  if (refused.empty()) return std::nullopt;
  return model::Error{fmt::format("--format {}: {} is a comparison, and {}; give --format {}",
                                  to_string(format), file, refused, formats_accepting(document)),
                      model::ErrorKind::usage};
}

std::string Reporter::refusal(const Document& document) const {
  const std::vector<Part> held = document.parts();
  const std::string_view name = to_string(format());
  if (held.empty()) {
    return fmt::format(
        "{} report of an empty document: give it results, a comparison, a noise "
        "report, machine checks or machine warnings",
        name);
  }
  const Capabilities can = capabilities();
  for (Part part : held) {
    if (std::find(can.parts.begin(), can.parts.end(), part) == can.parts.end()) {
      std::string accepted;
      for (std::size_t i = 0; i < can.parts.size(); ++i) {
        if (i > 0) accepted += i + 1 == can.parts.size() ? " and " : ", ";
        accepted += to_string(can.parts[i]);
      }
      return fmt::format("the {} format has no form for {}: it renders {}", name, to_string(part),
                         accepted);
    }
  }
  if (held.size() > 1 && !can.several_parts) {
    std::string parts;
    for (std::size_t i = 0; i < held.size(); ++i) {
      if (i > 0) parts += i + 1 == held.size() ? " and " : ", ";
      parts += to_string(held[i]);
    }
    return fmt::format(
        "the {} format writes one document per output, not {}: render each part on its own", name,
        parts);
  }
  return "";
}

namespace {
// What render() and write() do with a document the format refuses.
void require_accepted(const Reporter& reporter, const Document& document) {
  if (const std::string why = reporter.refusal(document); !why.empty()) {
    throw std::invalid_argument(why);
  }
}
}  // namespace

std::string Reporter::render(const Document& document) const {
  require_accepted(*this, document);
  return render_accepted(document);
}

std::string Reporter::render(const RunResult& run) const {
  return render(Document{.results = &run});
}

void Reporter::write(const Document& document, std::ostream& out) const {
  require_accepted(*this, document);
  write_accepted(document, out);
}

void Reporter::write_accepted(const Document& document, std::ostream& out) const {
  out << render_accepted(document);
}

std::string parts::join(const std::vector<std::string>& rendered) {
  std::string out;
  for (std::size_t i = 0; i < rendered.size(); ++i) {
    if (i > 0) out += "\n";
    out += rendered[i];
  }
  return out;
}

std::unique_ptr<Reporter> make_reporter(Format format, Options options) {
  switch (format) {
    case Format::console:
      return make_console_reporter(options);
    case Format::json:
      return make_json_reporter();
    case Format::markdown:
      return make_markdown_reporter();
    case Format::csv:
      return make_csv_reporter();
    case Format::html:
      return make_html_reporter();
    case Format::junit:
      return make_junit_reporter();
    case Format::gbench:
      return make_gbench_reporter();
    case Format::bmf:
      return make_bmf_reporter();
    case Format::github_action:
      return make_github_action_reporter();
  }
  return make_console_reporter(options);
}

namespace {
// Three significant digits: enough to see a 1% change, few enough to read at a glance.
// std::to_chars rounds exactly as fmt's "{:.Nf}" does (both print the nearest decimal of the
// binary value) at a tenth of its cost: `history trend` writes a million and a half of them.
// floor(log10(|value|)) for a value that is not 0: without the logarithm where the answer is
// certain (clear of a power of ten by far more than log10's error), the logarithm itself near
// one, so that every value gets the digits it got before.
double decimal_magnitude(double value) {
  const double size = std::fabs(value);
  if (size >= 1.001 && size <= 9.99) return 0;
  if (size >= 10.01 && size <= 99.9) return 1;
  if (size >= 100.1 && size <= 999) return 2;
  return std::floor(std::log10(size));
}

constexpr std::array<double, 10> kPowersOfTen = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

// `value` with `decimals` decimals as std::to_chars writes it (the decimal nearest the binary
// value), into `text`, when that is certain from the value scaled by 10^decimals in doubles:
// the scaling errs by under 1e-12 there, so a fraction further than 1e-6 from one half rounds
// as the exact value does. Returns nullptr where it is not certain (nearly a tie, too many
// decimals, too large), for to_chars to decide. A fifth of the cost of to_chars, which writes
// four numbers on each of the ten million lines of a fleet's trend.
char* fixed_when_certain(std::span<char, 64> text, double value, int decimals) {
  const double size = std::fabs(value);
  if (decimals >= static_cast<int>(kPowersOfTen.size()) || !(size < 1e15)) return nullptr;
  const double scaled = size * kPowersOfTen[static_cast<std::size_t>(decimals)];
  const double whole = std::floor(scaled);
  const double fraction = scaled - whole;
  if (std::fabs(fraction - 0.5) <= 1e-6) return nullptr;
  std::uint64_t digits = static_cast<std::uint64_t>(whole) + (fraction > 0.5 ? 1 : 0);
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char* at = text.data();
  if (std::signbit(value)) *at++ = '-';
  if (digits < 10000 && decimals < 4) {
    // Three significant digits (and seconds of durations under three hours): the four digits,
    // zeros first, made two at a time from the table in a register, the point put in there, and
    // the whole written as 8 bytes. Digits built in memory and read back at once cost a stalled
    // load each (the bytes were stored in smaller pieces than they were read in).
    std::uint16_t high = 0;
    std::uint16_t low = 0;
    std::memcpy(&high, kPairs + 2 * (digits / 100), 2);
    std::memcpy(&low, kPairs + 2 * (digits % 100), 2);
    const int count = std::max(digits >= 1000  ? 4
                               : digits >= 100 ? 3
                               : digits >= 10  ? 2
                                               : 1,
                               decimals + 1);
    // The first character in the lowest byte: the `count` digits shown, at the bottom.
    std::uint64_t shown = (std::uint64_t{high} | std::uint64_t{low} << 16) >> (8 * (4 - count));
    const int whole_digits = count - decimals;
    if (decimals > 0) {
      const std::uint64_t below = (std::uint64_t{1} << (8 * whole_digits)) - 1;
      shown = (shown & below) | std::uint64_t{'.'} << (8 * whole_digits) | (shown & ~below) << 8;
    }
    std::memcpy(at, &shown, 8);  // at most 1 + 4 + 1 of the 64 bytes of `text` hold the number
    return at + count + (decimals > 0 ? 1 : 0);
  }
  // Longer numbers: the digits right-aligned in `padded` (zeros before them: at least one before
  // the point), with 16 bytes more, so that the whole part and the decimals are each copied as
  // 16 bytes (at most 16 digits each: below 1e15, 9 decimals).
  constexpr std::size_t kPadded = 24;
  std::array<char, kPadded + 16> padded;  // written before it is read
  std::memset(padded.data(), '0', padded.size());
  int count = 0;
  for (; digits > 0; digits /= 10) {
    padded[kPadded - static_cast<std::size_t>(++count)] = static_cast<char>('0' + digits % 10);
  }
  count = std::max(count, decimals + 1);
  const char* first = padded.data() + kPadded - count;
  // At most 1 + 16 + 1 + 9 bytes written as 1 + 16 + 1 + 16: well inside the 64 of `text`.
  const auto whole_digits = static_cast<std::size_t>(count - decimals);
  std::memcpy(at, first, 16);
  at += whole_digits;
  if (decimals > 0) {
    *at++ = '.';
    std::memcpy(at, first + whole_digits, 16);
    at += decimals;
  }
  return at;
}

// The decimals three_digits gives `value` (not 0).
int three_digit_decimals(double value) {
  return std::max(0, 2 - static_cast<int>(decimal_magnitude(value)));
}

// three_digits(value) into `text`; returns the end of what was written, or nullptr when it does
// not fit (a number of 64 digits or more: three_digits writes it through fmt).
char* three_digits_to(std::span<char, 64> text, double value) {
  if (value == 0.0) {
    text[0] = '0';
    return text.data() + 1;
  }
  const int decimals = three_digit_decimals(value);
  if (char* end = fixed_when_certain(text, value, decimals)) return end;
  const auto written = std::to_chars(text.data(), text.data() + text.size(), value,
                                     std::chars_format::fixed, decimals);
  return written.ec == std::errc() ? written.ptr : nullptr;
}

std::string three_digits(double value) {
  std::array<char, 64> text;  // written before it is read
  if (const char* end = three_digits_to(text, value)) {
    return std::string(static_cast<const char*>(text.data()), end);
  }
  return fmt::format("{:.{}f}", value, three_digit_decimals(value));
}
}  // namespace

namespace {

// A duration's value in the unit format_duration shows it in, and that unit (" µs" is two
// columns wide and three bytes long), held in 4 bytes to be copied as 4.
struct ShownDuration {
  double value;
  std::array<char, 4> unit;
  std::size_t unit_size;
  std::size_t unit_width;
  std::string_view unit_text() const { return {unit.data(), unit_size}; }
};

ShownDuration shown_duration(double ns) {
  const double magnitude = std::fabs(ns);
  if (magnitude < 1e3) return {ns, {' ', 'n', 's', 0}, 3, 3};
  if (magnitude < 1e6) return {ns / 1e3, {' ', '\xC2', '\xB5', 's'}, 4, 3};  // " µs"
  if (magnitude < 1e9) return {ns / 1e6, {' ', 'm', 's', 0}, 3, 3};
  return {ns / 1e9, {' ', 's', 0, 0}, 2, 2};
}

}  // namespace

char* duration_to(std::span<char, 64> text, double ns, std::size_t& width) {
  if (!std::isfinite(ns)) {
    std::memcpy(text.data(), "n/a", 3);
    width = 3;
    return text.data() + 3;
  }
  const ShownDuration shown = shown_duration(ns);
  char* end = three_digits_to(text, shown.value);
  if (end == nullptr || static_cast<std::size_t>(text.data() + text.size() - end) < 4) {
    return nullptr;
  }
  std::memcpy(end, shown.unit.data(), 4);
  width = static_cast<std::size_t>(end - text.data()) + shown.unit_width;
  return end + shown.unit_size;
}

std::size_t append_duration(std::string& out, double ns) {
  std::array<char, 64> text;  // written before it is read
  std::size_t width = 0;
  if (const char* end = duration_to(text, ns, width)) {
    out.append(static_cast<const char*>(text.data()), end);
    return width;
  }
  // A number of 60 digits or more.
  const ShownDuration shown = shown_duration(ns);
  const std::string digits = three_digits(shown.value);
  out += digits;
  out += shown.unit_text();
  return digits.size() + shown.unit_width;
}

std::string format_duration(double ns) {
  std::string text;
  append_duration(text, ns);
  return text;
}

std::string format_measure(double value, const std::string& metric) {
  if (metric.empty()) return format_duration(value);
  if (!std::isfinite(value)) return "n/a";
  const std::string unit = metric == "instructions" ? "instr" : metric;
  const double magnitude = std::fabs(value);
  if (magnitude < 1e3) return fmt::format("{:.0f} {}", value, unit);
  if (magnitude < 1e6) return three_digits(value / 1e3) + " k " + unit;
  if (magnitude < 1e9) return three_digits(value / 1e6) + " M " + unit;
  return three_digits(value / 1e9) + " G " + unit;
}

std::string format_bytes(double bytes) {
  const double kib = 1024.0;
  if (bytes < kib) return three_digits(bytes) + " B";
  if (bytes < kib * kib) return three_digits(bytes / kib) + " KiB";
  if (bytes < kib * kib * kib) return three_digits(bytes / kib / kib) + " MiB";
  return three_digits(bytes / kib / kib / kib) + " GiB";
}

bool drop_empty_column(std::vector<std::string>& headers,
                       std::vector<std::vector<std::string>>& rows, std::size_t column,
                       std::vector<bool>* right) {
  if (column >= headers.size() ||
      std::any_of(rows.begin(), rows.end(), [column](const std::vector<std::string>& row) {
        return column < row.size() && !row[column].empty();
      })) {
    return false;
  }
  headers.erase(headers.begin() + static_cast<std::ptrdiff_t>(column));
  for (std::vector<std::string>& row : rows) {
    if (column < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(column));
  }
  if (right && column < right->size()) {
    right->erase(right->begin() + static_cast<std::ptrdiff_t>(column));
  }
  return true;
}

std::string confidence_suffix(const Estimate& estimate) {
  const std::optional<double> below = model::confidence_below_nominal(estimate);
  return below ? fmt::format(" ({:.3g}%)", *below * 100.0) : std::string();
}

std::string format_samples(const BenchmarkResult& result) {
  if (result.samples.empty()) return "0 × 0";
  const auto [fewest, most] =
      std::minmax_element(result.samples.begin(), result.samples.end(),
                          [](const Sample& a, const Sample& b) { return a.iters < b.iters; });
  if (fewest->iters == most->iters) {
    return fmt::format("{} × {}", result.samples.size(), fewest->iters);
  }
  return fmt::format("{} × {}-{}", result.samples.size(), fewest->iters, most->iters);
}

std::string format_throughput(const Estimates& estimates) {
  std::string text;
  if (estimates.bytes_per_second) text = format_bytes_per_second(*estimates.bytes_per_second);
  if (estimates.items_per_second) {
    if (!text.empty()) text += ", ";
    text += format_items_per_second(*estimates.items_per_second);
  }
  return text;
}

std::string format_between_processes(const Estimates& estimates) {
  return estimates.between_process_share
             ? fmt::format("{:.0f}%", 100.0 * *estimates.between_process_share)
             : std::string();
}

bool any_between_processes(const RunResult& run) {
  return std::any_of(run.benchmarks.begin(), run.benchmarks.end(), [](const BenchmarkResult& b) {
    return b.kind != "scenario" && b.estimates.between_process_share.has_value();
  });
}

namespace {

// A control character as text: "\e", "\n", "\x07" (the C1 controls, U+0080 to U+009F, are
// handled by the caller).
std::string shown_control(unsigned char c) {
  switch (c) {
    case 0x1b:
      return "\\e";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      return fmt::format("\\x{:02x}", c);
  }
}

// Escapes controls of `text`; `keep` says, for the byte at an index, whether it passes as it is.
template <class Keep>
std::string escape_controls(const std::string& text, Keep keep) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (const std::size_t kept = keep(i); kept > 0) {
      out.append(text, i, kept);
      i += kept - 1;
    } else if (c < 0x20 || c == 0x7f) {
      out += shown_control(c);
    } else if (c == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      out += fmt::format("\\u00{:02x}", static_cast<unsigned char>(text[++i]));
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::string terminal_safe(const std::string& text, bool keep_colour) {
  if (std::none_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return (u < 0x20 && u != '\n') || u == 0x7f || u == 0xc2;
      })) {
    return text;
  }
  return escape_controls(text, [&](std::size_t i) -> std::size_t {
    if (text[i] == '\n') return 1;
    if (!keep_colour || text[i] != '\x1b' || i + 1 >= text.size() || text[i + 1] != '[') return 0;
    std::size_t end = i + 2;
    while (end < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == ';')) {
      ++end;
    }
    return end < text.size() && text[end] == 'm' ? end + 1 - i : 0;
  });
}

// The length of the valid UTF-8 sequence starting at `at` (1 to 4), or 0 when it is not one.
static std::size_t utf8_length(const std::string& text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const std::size_t length = lead >= 0xf0 && lead <= 0xf4   ? 4
                             : lead >= 0xe0                 ? 3
                             : lead >= 0xc2 && lead <= 0xdf ? 2
                                                            : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((static_cast<unsigned char>(text[at + i]) & 0xc0) != 0x80) return 0;
  }
  return length;
}

std::string markup_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80) {
      const std::size_t length = utf8_length(text, i);
      if (length == 0) {
        out += '?';
      } else {
        out.append(text, i, length);
        i += length - 1;
      }
      continue;
    }
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += byte < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : c;
    }
  }
  return out;
}

std::string markdown_escape(const std::string& text) {
  std::string out;
  for (char c : escape_controls(text, [](std::size_t) { return std::size_t{0}; })) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_code(const std::string& text) {
  const std::string inside = markdown_escape(text);
  std::size_t longest = 0;
  for (std::size_t at = inside.find('`'); at != std::string::npos; at = inside.find('`', at)) {
    const std::size_t end = std::min(inside.find_first_not_of('`', at), inside.size());
    longest = std::max(longest, end - at);
    at = end;
  }
  const std::string fence(longest + 1, '`');
  const bool all_spaces = inside.find_first_not_of(' ') == std::string::npos;
  const bool pad = inside.empty() || inside.front() == '`' || inside.back() == '`' ||
                   (!all_spaces && inside.front() == ' ' && inside.back() == ' ');
  const std::string space = pad ? " " : "";
  return fence + space + inside + space + fence;
}

std::string csv_quote(const std::string& field) {
  // The characters that start a formula in Excel, LibreOffice and Google Sheets (OWASP's list).
  const bool formula =
      !field.empty() && std::string_view("=+-@\t\r").find(field[0]) != std::string_view::npos;
  // A carriage return unquoted ends the row for most readers, as a newline does.
  if (!formula && field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string out = formula ? "\"'" : "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string pad(const std::string& text, std::size_t width, bool right) {
  const std::size_t w = display_width(text);
  if (w >= width) return text;
  const std::string fill(width - w, ' ');
  return right ? fill + text : text + fill;
}

std::string fit_to_width(std::string_view text, std::size_t width) {
  // Columns are counted as code points: the first byte of each UTF-8 sequence.
  const auto starts_a_point = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  std::size_t points = 0;
  for (const char c : text) points += starts_a_point(c) ? 1 : 0;
  if (points <= width) return std::string(text);
  if (width == 0) return {};
  // Keep width - 1 code points, then the ellipsis.
  std::size_t kept = 0;
  std::size_t end = 0;
  for (; end < text.size(); ++end) {
    if (starts_a_point(text[end]) && kept++ == width - 1) break;
  }
  return std::string(text.substr(0, end)) + "…";
}

std::size_t display_width(std::string_view text) {
  // All but the continuation bytes (10xxxxxx) are counted, eight bytes at a time: a byte's top
  // bit set and the next bit clear marks one (a table of ten million rows measures every cell).
  std::size_t continuations = 0;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, 8);
    // One bit per continuation byte, at the bottom of its byte; the multiplication sums the
    // eight bytes into the top one (popcount is a library call without -mpopcnt).
    const std::uint64_t marks = (word & ~(word << 1) & 0x8080808080808080ULL) >> 7;
    continuations += static_cast<std::size_t>((marks * 0x0101010101010101ULL) >> 56);
  }
  for (; i < text.size(); ++i) {
    continuations += (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80 ? 1 : 0;
  }
  return text.size() - continuations;
}

std::string format_bytes_per_second(double bytes_per_second) {
  return format_bytes(bytes_per_second) + "/s";
}

std::string format_items_per_second(double items_per_second) {
  if (items_per_second < 1e3) return three_digits(items_per_second) + " /s";
  if (items_per_second < 1e6) return three_digits(items_per_second / 1e3) + " k/s";
  if (items_per_second < 1e9) return three_digits(items_per_second / 1e6) + " M/s";
  return three_digits(items_per_second / 1e9) + " G/s";
}

char* TableCells::room(std::size_t most) {
  constexpr std::size_t kSlack = 64;
  if (text_.size() < used_ + most + kSlack) text_.resize(2 * (used_ + most + kSlack));
  return text_.data() + used_;
}

void TableCells::add(std::string_view cell) {
  char* at = room(cell.size());
  if (!cell.empty()) std::memcpy(at, cell.data(), cell.size());
  end_cell_at(at + cell.size(), display_width(cell));
}

void TableCells::clear() {
  used_ = 0;
  ends_.clear();
  widths_.clear();
  row_ends_.clear();
}

std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::vector<std::string>>& rows,
                         const std::vector<bool>& right, const std::string& indent,
                         const CellStyle& style) {
  TableCells cells;
  for (const auto& row : rows) {
    for (const std::string& cell : row) cells.add(cell);
    cells.end_row();
  }
  return render_table(headers, cells, right, indent, style);
}

std::string render_table(const std::vector<std::string>& headers, const TableCells& cells,
                         const std::vector<bool>& right, const std::string& indent,
                         const CellStyle& style) {
  std::string out;
  append_table(out, headers, cells, right, indent, style);
  return out;
}

namespace {

// Where a table's unstyled lines are written: straight into the string, grown once beforehand
// by a bound on what is written plus kSlack, so that a cell of up to 16 bytes is copied as 16
// and a fill of up to 32 spaces written as 32 (a fixed size: two instructions, not a call to
// memcpy or memset, each of the twelve pieces of ten million rows), what lies beyond being
// overwritten next or cut at the end.
class LineWriter {
 public:
  static constexpr std::size_t kSlack = 64;
  LineWriter(std::string& out, std::size_t bound) : out_(out), start_(out.size()) {
    out_.resize(start_ + bound + kSlack);
    at_ = out_.data() + start_;
  }
  // `text`; `readable`: how many bytes its buffer holds from text.data() on (16 are copied when
  // it holds that many).
  void put(std::string_view text, std::size_t readable) {
    if (text.size() <= 16 && readable >= 16) {
      std::memcpy(at_, text.data(), 16);
    } else if (!text.empty()) {
      std::memcpy(at_, text.data(), text.size());
    }
    at_ += text.size();
  }
  void put(std::string_view text) { put(text, text.size()); }
  void spaces(std::size_t count) {
    static constexpr char kSpaces[] = "                                ";  // 32
    if (count <= 32) {
      std::memcpy(at_, kSpaces, 32);
    } else {
      std::memset(at_, ' ', count);
    }
    at_ += count;
  }
  char* at() const { return at_; }
  // Ends the line begun at `line`: its trailing spaces dropped, a newline.
  void end_line(const char* line) {
    while (at_ > line && at_[-1] == ' ') --at_;
    *at_++ = '\n';
  }
  void finish() { out_.resize(static_cast<std::size_t>(at_ - out_.data())); }

 private:
  std::string& out_;
  std::size_t start_;
  char* at_ = nullptr;
};

}  // namespace

void append_table(std::string& out, const std::vector<std::string>& headers,
                  const TableCells& cells, const std::vector<bool>& right,
                  const std::string& indent, const CellStyle& style) {
  // Each cell was measured once, as it was added, and is written straight into the text.
  std::vector<std::size_t> widths(headers.size());
  std::vector<std::size_t> header_widths(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) {
    widths[c] = header_widths[c] = display_width(headers[c]);
  }
  std::size_t first = 0;
  std::size_t cell_widths = 0;
  for (const std::size_t end : cells.row_ends_) {
    if (end - first > headers.size()) {
      throw std::invalid_argument("append_table: a row has more cells than the table has headers");
    }
    for (std::size_t i = first; i < end; ++i) {
      widths[i - first] = std::max(widths[i - first], cells.widths_[i]);
      cell_widths += cells.widths_[i];
    }
    first = end;
  }
  std::size_t line_width = indent.size() + 1;
  for (std::size_t width : widths) line_width += width + 2;
  // Read once per cell: a byte each, not std::vector<bool>'s bit lookups (ten million rows).
  const std::vector<char> right_aligned(right.begin(), right.end());
  const auto fill_of = [&](std::size_t c, std::size_t measured) {
    return widths[c] > measured ? widths[c] - measured : 0;
  };
  const auto cell = [&](std::size_t row_first, std::size_t c) {
    const std::size_t from = row_first + c == 0 ? 0 : cells.ends_[row_first + c - 1];
    return cells.text().substr(from, cells.ends_[row_first + c] - from);
  };
  if (!style) {
    // A line's bytes: its cells' widths padded to the columns', plus what each cell has in
    // bytes beyond its width (UTF-8), the indent, the gaps and the newline.
    std::size_t header_bytes = line_width;
    for (const std::string& header : headers) header_bytes += header.size();
    LineWriter writer(
        out, header_bytes + cells.row_ends_.size() * line_width + (cells.used_ - cell_widths));
    char* line = writer.at();
    writer.put(indent);
    for (std::size_t c = 0; c < headers.size(); ++c) {
      if (c > 0) writer.spaces(2);
      writer.put(headers[c]);
      writer.spaces(fill_of(c, header_widths[c]));
    }
    writer.end_line(line);
    first = 0;
    for (const std::size_t end : cells.row_ends_) {
      line = writer.at();
      writer.put(indent);
      for (std::size_t c = 0; c < end - first; ++c) {
        if (c > 0) writer.spaces(2);
        const std::size_t fill = fill_of(c, cells.widths_[first + c]);
        const bool fill_first = c < right_aligned.size() && right_aligned[c] != 0;
        if (fill_first) writer.spaces(fill);
        const std::string_view text = cell(first, c);
        writer.put(text,
                   cells.text_.size() - static_cast<std::size_t>(text.data() - cells.text_.data()));
        if (!fill_first) writer.spaces(fill);
      }
      writer.end_line(line);
      first = end;
    }
    writer.finish();
    return;
  }
  // Styled: each body cell padded, then handed to `style`.
  const auto emit = [&](std::size_t count, const auto& text_of, const std::size_t* measured,
                        bool header) {
    const std::size_t start = out.size();
    out += indent;
    for (std::size_t c = 0; c < count; ++c) {
      if (c > 0) out += "  ";
      const std::size_t fill = fill_of(c, measured[c]);
      const bool fill_first = c < right_aligned.size() && right_aligned[c] != 0 && !header;
      const std::string padding(fill, ' ');
      const std::string text(text_of(c));
      out += header ? text + padding : style(c, fill_first ? padding + text : text + padding);
    }
    while (out.size() > start && out.back() == ' ') out.pop_back();
    out += '\n';
  };
  emit(
      headers.size(), [&](std::size_t c) { return std::string_view(headers[c]); },
      header_widths.data(), true);
  first = 0;
  for (const std::size_t end : cells.row_ends_) {
    emit(
        end - first, [&](std::size_t c) { return cell(first, c); }, cells.widths_.data() + first,
        false);
    first = end;
  }
}

std::optional<double> median_over_samples(const BenchmarkResult& result,
                                          const ResourceField& field) {
  std::vector<double> values;
  for (const Sample& sample : result.samples) {
    if (!sample.resources) continue;
    if (const auto value = field(sample, *sample.resources)) values.push_back(*value);
  }
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace benchkit::report
