// A file conversion: CSV rows (12 numeric and 8 fixed-width text columns, generated with a
// fixed seed) into a columnar binary file, with a sweep of worker threads and batch sizes.
//
//   parse   split the text into batches of rows; workers parse the batches into columns
//   encode  workers encode each column of each batch (deltas and varints for integers, raw
//           doubles and fixed-width text) and compress it with zstd
//   write   one thread writes the batches and a footer to the file
//
// Then it reads the file back and checks the row count and every row's id. CPU time per phase
// counts all threads: CPU above 100% of the wall time means the workers ran in parallel. On a
// 2-core machine 4 workers cannot beat 2, and 100,000-row batches leave workers idle when there
// are only a few batches.
//
//   example_convert                           1M rows, 9 combinations
//   example_convert --param rows=4000000      4M rows (about 800 MB of CSV in memory)
#include <zstd.h>
#include <benchkit/benchkit.hpp>

#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kIntegerColumns = 6;
constexpr std::size_t kDecimalColumns = 6;
constexpr std::size_t kTextColumns = 8;
// Widths of the fixed-width text columns: codes, names, identifiers, as a CSV export has them.
constexpr std::array<std::size_t, kTextColumns> kTextWidths = {2, 3, 8, 12, 16, 10, 6, 24};
// Bytes of one row in columns: 8 per number, the width of each text column.
constexpr std::size_t kColumnarRowBytes = [] {
  std::size_t bytes = 8 * (kIntegerColumns + kDecimalColumns);
  for (std::size_t width : kTextWidths) bytes += width;
  return bytes;
}();
// Level 1: a converter is usually limited by throughput, not by file size.
constexpr int kCompressionLevel = 1;
constexpr char kMagic[8] = {'B', 'K', 'C', 'O', 'L', '0', '0', '1'};

// splitmix64: a tiny, seedable generator; the same rows on every platform.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }
};

// `rows` CSV lines (no header). Column 0 is the row id; the other columns vary in magnitude
// and in how repetitive they are, like the columns of a real export.
std::string generate_csv(std::size_t rows, std::uint64_t seed) {
  static constexpr std::array<std::string_view, 8> kWords = {
      "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
  Random random{seed};
  std::string text;
  text.reserve(rows * 200);
  char number[32];
  auto put_int = [&](std::int64_t value) {
    const auto end = std::to_chars(number, number + sizeof number, value).ptr;
    text.append(number, end);
    text += ',';
  };
  auto put_decimal = [&](double value) {
    const auto end =
        std::to_chars(number, number + sizeof number, value, std::chars_format::fixed, 4).ptr;
    text.append(number, end);
    text += ',';
  };
  for (std::size_t row = 0; row < rows; ++row) {
    put_int(static_cast<std::int64_t>(row));                                      // id
    put_int(1'700'000'000'000 + static_cast<std::int64_t>(row) * 37 +             // timestamp
            static_cast<std::int64_t>(random.below(1000)));                       //
    put_int(static_cast<std::int64_t>(random.below(100)));                        // quantity
    put_int(static_cast<std::int64_t>(random.below(1'000'000)) - 500'000);        // delta
    put_int(static_cast<std::int64_t>(random.below(16)));                         // category
    put_int(static_cast<std::int64_t>(random.next() >> 1));                       // hash
    put_decimal(static_cast<double>(random.below(1'000'000)) / 100.0);            // price
    put_decimal(static_cast<double>(random.below(10'000)) / 10'000.0);            // ratio
    put_decimal(static_cast<double>(random.below(2'000'000)) / 1000.0 - 1000.0);  // reading
    put_decimal(static_cast<double>(random.below(360'000)) / 1000.0);             // angle
    put_decimal(static_cast<double>(random.below(100)) * 0.25);                   // step
    put_decimal(static_cast<double>(random.next() >> 11) / 9007199254740992.0);   // noise
    for (std::size_t column = 0; column < kTextColumns; ++column) {
      const std::size_t width = kTextWidths[column];
      std::string cell;
      if (column == 2 || column == 7) {  // identifiers: hexadecimal
        static constexpr char kHex[] = "0123456789abcdef";
        for (std::size_t i = 0; i < width; ++i) cell += kHex[random.below(16)];
      } else {  // words, cut or padded to the column's width
        while (cell.size() < width) cell += kWords[random.below(kWords.size())];
        cell.resize(width - random.below(std::min<std::size_t>(width, 3)));
      }
      text += cell;
      text += column + 1 == kTextColumns ? '\n' : ',';
    }
  }
  return text;
}

// One batch of rows, column by column.
struct Batch {
  std::string_view text;  // the batch's CSV lines
  std::size_t rows = 0;
  std::array<std::vector<std::int64_t>, kIntegerColumns> integers;
  std::array<std::vector<double>, kDecimalColumns> decimals;
  std::array<std::vector<char>, kTextColumns> texts;  // rows × width, space-padded
  std::vector<std::string> encoded;                   // one compressed chunk per column
};

// Parses the lines of one batch into its columns; throws on a malformed line.
void parse_batch(Batch& batch) {
  for (auto& column : batch.integers) column.resize(batch.rows);
  for (auto& column : batch.decimals) column.resize(batch.rows);
  for (std::size_t c = 0; c < kTextColumns; ++c)
    batch.texts[c].assign(batch.rows * kTextWidths[c], ' ');
  const char* at = batch.text.data();
  const char* const end = at + batch.text.size();
  for (std::size_t row = 0; row < batch.rows; ++row) {
    for (std::size_t c = 0; c < kIntegerColumns; ++c) {
      const auto result = std::from_chars(at, end, batch.integers[c][row]);
      if (result.ec != std::errc() || *result.ptr != ',') throw std::runtime_error("bad integer");
      at = result.ptr + 1;
    }
    for (std::size_t c = 0; c < kDecimalColumns; ++c) {
      const auto result = std::from_chars(at, end, batch.decimals[c][row]);
      if (result.ec != std::errc() || *result.ptr != ',') throw std::runtime_error("bad number");
      at = result.ptr + 1;
    }
    for (std::size_t c = 0; c < kTextColumns; ++c) {
      const char* stop = static_cast<const char*>(
          std::memchr(at, c + 1 == kTextColumns ? '\n' : ',', static_cast<std::size_t>(end - at)));
      if (!stop || static_cast<std::size_t>(stop - at) > kTextWidths[c]) {
        throw std::runtime_error("bad text cell");
      }
      std::memcpy(batch.texts[c].data() + row * kTextWidths[c], at,
                  static_cast<std::size_t>(stop - at));
      at = stop + 1;
    }
  }
}

void put_varint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out += static_cast<char>(value | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
}

// Deltas from the previous value, zigzag-mapped so small negative steps stay small, as varints.
std::string encode_integers(const std::vector<std::int64_t>& values) {
  std::string out;
  std::int64_t previous = 0;
  for (std::int64_t value : values) {
    const std::uint64_t delta =
        static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(previous);
    const auto signed_delta = static_cast<std::int64_t>(delta);
    put_varint(out, (static_cast<std::uint64_t>(signed_delta) << 1) ^
                        static_cast<std::uint64_t>(signed_delta >> 63));
    previous = value;
  }
  return out;
}

std::vector<std::int64_t> decode_integers(std::string_view bytes, std::size_t rows) {
  std::vector<std::int64_t> values;
  values.reserve(rows);
  std::int64_t previous = 0;
  std::size_t at = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    std::uint64_t zigzag = 0;
    for (int shift = 0;; shift += 7) {
      if (at >= bytes.size()) throw std::runtime_error("truncated integer column");
      const auto byte = static_cast<unsigned char>(bytes[at++]);
      zigzag |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) break;
    }
    const std::uint64_t delta = (zigzag >> 1) ^ (~(zigzag & 1) + 1);
    previous = static_cast<std::int64_t>(static_cast<std::uint64_t>(previous) + delta);
    values.push_back(previous);
  }
  return values;
}

std::string compress(ZSTD_CCtx* context, std::string_view raw) {
  std::string out(ZSTD_compressBound(raw.size()), '\0');
  const std::size_t size =
      ZSTD_compressCCtx(context, out.data(), out.size(), raw.data(), raw.size(), kCompressionLevel);
  if (ZSTD_isError(size)) throw std::runtime_error(ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

void encode_batch(Batch& batch, ZSTD_CCtx* context) {
  batch.encoded.clear();
  for (const auto& column : batch.integers) {
    batch.encoded.push_back(compress(context, encode_integers(column)));
  }
  for (const auto& column : batch.decimals) {
    batch.encoded.push_back(
        compress(context, std::string_view(reinterpret_cast<const char*>(column.data()),
                                           column.size() * sizeof(double))));
  }
  for (const auto& column : batch.texts) {
    batch.encoded.push_back(compress(context, std::string_view(column.data(), column.size())));
  }
}

// Runs task(index, worker) for index 0..count-1 on `workers` threads, which take the next index
// as they finish. An exception in a task is rethrown here once all threads have stopped.
template <class Task>
void parallel_for(std::size_t workers, std::size_t count, Task task) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&](std::size_t worker) {
    for (std::size_t index = next++; index < count && !failed; index = next++) {
      try {
        task(index, worker);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t worker = 1; worker < workers; ++worker) threads.emplace_back(work, worker);
  work(0);
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File open_file(const fs::path& path, const char* mode) {
  File file(std::fopen(path.c_str(), mode), &std::fclose);
  if (!file) throw std::runtime_error("cannot open " + path.string());
  return file;
}

void write_u64(std::FILE* file, std::uint64_t value) {
  if (std::fwrite(&value, sizeof value, 1, file) != 1) throw std::runtime_error("write failed");
}

// Layout: magic; per batch: rows, then per column its size and bytes; footer: the offset of
// every batch, the batch count and the total row count (the last 16 bytes).
std::uint64_t write_file(const fs::path& path, const std::vector<Batch>& batches) {
  File file = open_file(path, "wb");
  std::fwrite(kMagic, 1, sizeof kMagic, file.get());
  std::vector<std::uint64_t> offsets;
  std::uint64_t offset = sizeof kMagic;
  std::uint64_t rows = 0;
  for (const Batch& batch : batches) {
    offsets.push_back(offset);
    write_u64(file.get(), batch.rows);
    offset += 8;
    for (const std::string& chunk : batch.encoded) {
      write_u64(file.get(), chunk.size());
      if (std::fwrite(chunk.data(), 1, chunk.size(), file.get()) != chunk.size()) {
        throw std::runtime_error("cannot write " + path.string());
      }
      offset += 8 + chunk.size();
    }
    rows += batch.rows;
  }
  for (std::uint64_t batch_offset : offsets) write_u64(file.get(), batch_offset);
  write_u64(file.get(), offsets.size());
  write_u64(file.get(), rows);
  if (std::fflush(file.get()) != 0) throw std::runtime_error("cannot write " + path.string());
  return offset + 8 * offsets.size() + 16;
}

// What reading the file back finds: the footer's row count, the rows the batches hold, and
// whether the id column counts 0, 1, 2, ... through every batch.
struct ReadBack {
  std::uint64_t footer_rows = 0;
  std::uint64_t batch_rows = 0;
  bool ids_in_order = true;
};

ReadBack read_back(const fs::path& path) {
  std::string bytes(fs::file_size(path), '\0');
  File file = open_file(path, "rb");
  if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size() ||
      bytes.size() < sizeof kMagic + 16 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    throw std::runtime_error(path.string() + " is not a columnar file");
  }
  auto u64_at = [&](std::size_t at) {
    std::uint64_t value;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
  };
  ReadBack result;
  result.footer_rows = u64_at(bytes.size() - 8);
  const std::uint64_t batch_count = u64_at(bytes.size() - 16);
  const std::size_t footer = bytes.size() - 16 - 8 * batch_count;
  std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(),
                                                                  &ZSTD_freeDCtx);
  std::int64_t expected_id = 0;
  for (std::uint64_t b = 0; b < batch_count; ++b) {
    std::size_t at = u64_at(footer + 8 * b);
    const std::uint64_t rows = u64_at(at);
    result.batch_rows += rows;
    const std::uint64_t id_size = u64_at(at + 8);
    const std::string_view id_chunk(bytes.data() + at + 16, id_size);
    std::string raw(ZSTD_getFrameContentSize(id_chunk.data(), id_chunk.size()), '\0');
    const std::size_t size = ZSTD_decompressDCtx(context.get(), raw.data(), raw.size(),
                                                 id_chunk.data(), id_chunk.size());
    if (ZSTD_isError(size)) throw std::runtime_error("the id column does not decompress");
    for (std::int64_t id : decode_integers(raw, rows)) {
      result.ids_in_order = result.ids_in_order && id == expected_id;
      ++expected_id;
    }
  }
  return result;
}

// The CSV of the run's size, made once per process: the nine combinations convert the same
// input, and making it is set-up, not conversion.
const std::string& csv_for(std::size_t rows) {
  static std::size_t made_rows = 0;
  static std::string text;
  if (made_rows != rows || text.empty()) {
    text = generate_csv(rows, /*seed=*/2024);
    made_rows = rows;
  }
  return text;
}

}  // namespace

// The corpus a run reads: generate_csv's rows and seed (the key its exact counts agree on).
static std::string corpus_key(std::int64_t rows) {
  return "generated CSV, " + std::to_string(rows) + " rows, seed 2024";
}

static void convert(benchkit::Scenario& s, std::int64_t rows, int workers,
                    std::int64_t batch_rows) {
  const std::string& csv = csv_for(static_cast<std::size_t>(rows));  // set-up, not timed
  std::string pattern = (fs::temp_directory_path() / "benchkit-convert-XXXXXX").string();
  const int descriptor = mkstemp(pattern.data());
  if (descriptor < 0) throw std::runtime_error("cannot create " + pattern);
  close(descriptor);
  const fs::path path = pattern;
  struct Remove {
    fs::path path;
    ~Remove() { fs::remove(path); }
  } remove_at_end{path};
  const auto worker_count = static_cast<std::size_t>(workers);

  std::vector<Batch> batches;
  s.phase("parse", {.items = rows, .bytes = static_cast<std::int64_t>(csv.size())}, [&] {
    // Cutting the text into batches of lines is sequential; parsing them is not.
    std::size_t start = 0;
    while (start < csv.size()) {
      Batch batch;
      std::size_t end = start;
      while (batch.rows < static_cast<std::size_t>(batch_rows) && end < csv.size()) {
        const void* newline = std::memchr(csv.data() + end, '\n', csv.size() - end);
        end = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - csv.data()) + 1
                      : csv.size();
        ++batch.rows;
      }
      batch.text = std::string_view(csv).substr(start, end - start);
      batches.push_back(std::move(batch));
      start = end;
    }
    parallel_for(worker_count, batches.size(),
                 [&](std::size_t index, std::size_t) { parse_batch(batches[index]); });
  });

  const std::int64_t columnar_bytes = rows * static_cast<std::int64_t>(kColumnarRowBytes);
  std::vector<std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)>> contexts;
  for (std::size_t worker = 0; worker < worker_count; ++worker) {
    contexts.emplace_back(ZSTD_createCCtx(), &ZSTD_freeCCtx);
  }
  s.phase("encode", {.items = rows, .bytes = columnar_bytes}, [&] {
    parallel_for(worker_count, batches.size(), [&](std::size_t index, std::size_t worker) {
      encode_batch(batches[index], contexts[worker].get());
    });
  });

  std::uint64_t file_bytes = 0;
  std::int64_t encoded_bytes = 0;
  for (const Batch& batch : batches) {
    for (const std::string& chunk : batch.encoded)
      encoded_bytes += static_cast<std::int64_t>(chunk.size());
  }
  s.phase("write", {.items = rows, .bytes = encoded_bytes},
          [&] { file_bytes = write_file(path, batches); });

  const ReadBack back = read_back(path);
  const auto expected = static_cast<std::uint64_t>(rows);
  s.verify(back.footer_rows == expected && back.batch_rows == expected,
           std::to_string(expected) + " rows read back from the file");
  s.verify(back.ids_in_order, "the id column reads back 0, 1, 2, ... in order");
  s.counter("batches", static_cast<double>(batches.size()));
  // Every worker count and batch size reads the same generated corpus: its rows must come back
  // alike in all nine runs (and in every repetition and process).
  s.exact_count("rows_read_back", back.batch_rows, corpus_key(rows));
  s.counter("compression_ratio", static_cast<double>(csv.size()) / static_cast<double>(file_bytes));
}
BENCHKIT_SCENARIO(convert)
    .param("rows", {1'000'000})
    .param("workers", {1, 2, 4})
    .param("batch_rows", {5'000, 10'000, 100'000});
