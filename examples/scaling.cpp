// A scaling driver: the whole life of a store at 1M items (10M or 100M with
// --param items=10000000), phase by phase, for four payload kinds.
//
// The store is a small segmented append-only log built for this example: items are appended in
// batches, every 65,536 items the open segment is compressed with zstd and written to its own
// file; recovery re-opens the folder and scans every segment (header, checksum, contiguous
// sequence numbers); the drain reads the segments in order and deletes each one once its items
// are acknowledged. The scenario checks that the drain returns a gap-free, in-order sequence of
// exactly N items with their payloads, and that the log is empty at the end.
//
// The payload kind decides what zstd sees: `uniform` compresses hundreds of times and makes the
// whole pipeline look far faster than it is with `text` or `json` (what logs and events hold);
// `random` does not compress at all.
//
//   example_scaling                                   1M items, four payload kinds
//   example_scaling --param items=10000000            10M (about 700 MB of payload)
//   example_scaling --param items=100000000 --filter payload=text   100M: 7 GB of payload, disk
//
// Segments go to $TMPDIR (or /tmp) and are deleted by the drain. They are written without fsync
// and recovered from the page cache: this measures the log's own work, not the disk's.
#include <zstd.h>
#include <benchkit/benchkit.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

// 64 bytes per item: a small event or log record.
constexpr std::size_t kPayloadBytes = 64;
// Items per append call, as a producer that batches would hand them over.
constexpr std::size_t kBatchItems = 5'000;
// Items per segment: 65,536 records of 76 bytes, about 5 MiB before compression, large enough
// for zstd to find the payload's redundancy, small enough to drain in steps.
constexpr std::size_t kSegmentItems = 65'536;
// zstd's default level.
constexpr int kCompressionLevel = 3;
// Distinct payload bytes items are cut from (8 MiB, larger than a segment): consecutive items
// carry consecutive, different slices, so a segment holds no artificial repetition.
constexpr std::size_t kPoolBytes = 8u << 20;
constexpr char kMagic[8] = {'B', 'K', 'L', 'O', 'G', '0', '0', '1'};

// The header in front of each segment's zstd frame.
struct SegmentHeader {
  char magic[8];
  std::uint64_t first_sequence;
  std::uint64_t count;
  std::uint64_t raw_bytes;
  std::uint64_t stored_bytes;
  std::uint64_t checksum;  // of the stored (compressed) bytes
};

// A 64-bit multiplicative hash over 8-byte words (FNV-1a's step, a word at a time): catches a
// torn or corrupted segment at memory speed.
std::uint64_t checksum(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    hash = (hash ^ word) * 0x100000001b3ULL;
  }
  for (; i < bytes.size(); ++i) {
    hash = (hash ^ static_cast<unsigned char>(bytes[i])) * 0x100000001b3ULL;
  }
  return hash;
}

void put_u64(std::string& out, std::uint64_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string read_file(const fs::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) throw std::runtime_error("cannot open " + path.string());
  std::string bytes(fs::file_size(path), '\0');
  if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) {
    throw std::runtime_error("cannot read " + path.string());
  }
  return bytes;
}

struct Segment {
  fs::path path;
  std::uint64_t first_sequence = 0;
  std::uint64_t count = 0;
  std::uint64_t raw_bytes = 0;
  std::uint64_t stored_bytes = 0;
};

class SegmentLog {
 public:
  // A new, empty log in an existing empty folder.
  static SegmentLog create(fs::path folder) { return SegmentLog(std::move(folder)); }

  // Recovery: re-opens the log in `folder`, reading and checking every segment.
  static SegmentLog open(fs::path folder) {
    SegmentLog log(std::move(folder));
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(log.folder_)) {
      if (entry.path().extension() == ".seg") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());  // zero-padded first sequence numbers
    for (const fs::path& path : paths) {
      const std::string bytes = read_file(path);
      SegmentHeader header;
      if (bytes.size() < sizeof header) throw std::runtime_error(path.string() + " is truncated");
      std::memcpy(&header, bytes.data(), sizeof header);
      const std::string_view stored(bytes.data() + sizeof header, bytes.size() - sizeof header);
      if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0 ||
          stored.size() != header.stored_bytes || checksum(stored) != header.checksum) {
        throw std::runtime_error(path.string() + " is damaged");
      }
      if (header.first_sequence != log.next_sequence_) {
        throw std::runtime_error(path.string() + " does not continue the previous segment");
      }
      log.segments_.push_back(
          {path, header.first_sequence, header.count, header.raw_bytes, header.stored_bytes});
      log.next_sequence_ = header.first_sequence + header.count;
    }
    return log;
  }

  // Appends one record per payload; sequence numbers follow on from the last item.
  void append(const std::vector<std::string_view>& payloads) {
    for (std::string_view payload : payloads) {
      put_u64(open_, next_sequence_++);
      const auto size = static_cast<std::uint32_t>(payload.size());
      open_.append(reinterpret_cast<const char*>(&size), sizeof size);
      open_.append(payload);
      if (++open_count_ == kSegmentItems) seal();
    }
  }

  // Writes the open segment, however few items it holds.
  void flush() {
    if (open_count_ > 0) seal();
  }

  // Hands every item to `consume(sequence, payload)` in order; each segment is deleted once all
  // its items are acknowledged (consumed).
  template <class Consume>
  void drain(Consume&& consume) {
    std::string raw;
    while (!segments_.empty()) {
      const Segment& segment = segments_.front();
      const std::string bytes = read_file(segment.path);
      raw.resize(segment.raw_bytes);
      const std::size_t size =
          ZSTD_decompressDCtx(decompressor_.get(), raw.data(), raw.size(),
                              bytes.data() + sizeof(SegmentHeader), segment.stored_bytes);
      if (ZSTD_isError(size) || size != segment.raw_bytes) {
        throw std::runtime_error(segment.path.string() + " does not decompress");
      }
      std::size_t at = 0;
      while (at < size) {
        std::uint64_t sequence;
        std::uint32_t length;
        std::memcpy(&sequence, raw.data() + at, sizeof sequence);
        std::memcpy(&length, raw.data() + at + sizeof sequence, sizeof length);
        at += sizeof sequence + sizeof length;
        consume(sequence, std::string_view(raw.data() + at, length));
        at += length;
      }
      acknowledge(segment.first_sequence + segment.count);
    }
  }

  bool empty() const { return segments_.empty() && open_count_ == 0; }
  std::uint64_t item_count() const {
    std::uint64_t items = open_count_;
    for (const Segment& segment : segments_) items += segment.count;
    return items;
  }
  std::size_t segments_written() const { return segments_written_; }
  std::uint64_t raw_bytes_written() const { return raw_bytes_written_; }
  std::uint64_t stored_bytes_written() const { return stored_bytes_written_; }

 private:
  explicit SegmentLog(fs::path folder)
      : folder_(std::move(folder)),
        compressor_(ZSTD_createCCtx(), &ZSTD_freeCCtx),
        decompressor_(ZSTD_createDCtx(), &ZSTD_freeDCtx) {
    ZSTD_CCtx_setParameter(compressor_.get(), ZSTD_c_compressionLevel, kCompressionLevel);
  }

  void seal() {
    const std::uint64_t first = next_sequence_ - open_count_;
    stored_.resize(ZSTD_compressBound(open_.size()));
    const std::size_t stored_size = ZSTD_compress2(compressor_.get(), stored_.data(),
                                                   stored_.size(), open_.data(), open_.size());
    if (ZSTD_isError(stored_size)) throw std::runtime_error(ZSTD_getErrorName(stored_size));
    stored_.resize(stored_size);
    SegmentHeader header{};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.first_sequence = first;
    header.count = open_count_;
    header.raw_bytes = open_.size();
    header.stored_bytes = stored_size;
    header.checksum = checksum(stored_);
    char name[32];
    std::snprintf(name, sizeof name, "%020llu.seg", static_cast<unsigned long long>(first));
    const fs::path path = folder_ / name;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"),
                                                         &std::fclose);
    if (!file || std::fwrite(&header, sizeof header, 1, file.get()) != 1 ||
        std::fwrite(stored_.data(), 1, stored_.size(), file.get()) != stored_.size()) {
      throw std::runtime_error("cannot write " + path.string());
    }
    segments_.push_back({path, first, open_count_, open_.size(), stored_size});
    ++segments_written_;
    raw_bytes_written_ += open_.size();
    stored_bytes_written_ += stored_size;
    open_.clear();
    open_count_ = 0;
  }

  // Deletes the segments whose items all come before `sequence`.
  void acknowledge(std::uint64_t sequence) {
    while (!segments_.empty() &&
           segments_.front().first_sequence + segments_.front().count <= sequence) {
      fs::remove(segments_.front().path);
      segments_.erase(segments_.begin());
    }
  }

  fs::path folder_;
  std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> compressor_;
  std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> decompressor_;
  std::vector<Segment> segments_;
  std::uint64_t next_sequence_ = 0;
  std::string open_;
  std::uint64_t open_count_ = 0;
  std::string stored_;
  std::size_t segments_written_ = 0;
  std::uint64_t raw_bytes_written_ = 0;
  std::uint64_t stored_bytes_written_ = 0;
};

// A fresh folder under $TMPDIR, removed with everything in it when the scenario ends.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "benchkit-scaling-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create " + pattern);
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Item i's payload: 64 consecutive bytes of the pool, wrapping around.
std::string_view payload_of(const std::string& pool, std::uint64_t item) {
  const std::size_t slots = pool.size() / kPayloadBytes;
  return std::string_view(pool.data() + (item % slots) * kPayloadBytes, kPayloadBytes);
}

}  // namespace

static void scaling(benchkit::Scenario& s, std::int64_t items, std::string payload) {
  // Set-up, not timed: the payloads and an empty folder.
  const std::string pool =
      benchkit::data::payload(benchkit::data::kind_from_string(payload), kPoolBytes, /*seed=*/7);
  const TemporaryFolder folder;
  const auto count = static_cast<std::uint64_t>(items);
  const std::int64_t payload_bytes = items * static_cast<std::int64_t>(kPayloadBytes);

  std::size_t segments = 0;
  double compression_ratio = 0.0;
  double stored_bytes = 0.0;
  s.phase("load", {.items = items, .bytes = payload_bytes}, [&] {
    SegmentLog log = SegmentLog::create(folder.path());
    std::vector<std::string_view> batch;
    batch.reserve(kBatchItems);
    for (std::uint64_t first = 0; first < count; first += kBatchItems) {
      batch.clear();
      const std::uint64_t end = std::min<std::uint64_t>(count, first + kBatchItems);
      for (std::uint64_t item = first; item < end; ++item) batch.push_back(payload_of(pool, item));
      log.append(batch);
    }
    log.flush();
    segments = log.segments_written();
    compression_ratio = static_cast<double>(log.raw_bytes_written()) /
                        static_cast<double>(log.stored_bytes_written());
    stored_bytes = static_cast<double>(log.stored_bytes_written());
  });  // the log object is dropped here, as a process that stops would
  s.counter("segments", static_cast<double>(segments));
  s.counter("compression_ratio", compression_ratio);
  // What reached the disk per second of the load, beside the payload's MiB/s of .bytes.
  s.phase_counter("load", "stored", stored_bytes,
                  benchkit::counter::rate | benchkit::counter::base_1024);

  std::uint64_t recovered = 0;
  std::unique_ptr<SegmentLog> log;
  s.phase("recover", {.items = items, .bytes = payload_bytes}, [&] {
    log = std::make_unique<SegmentLog>(SegmentLog::open(folder.path()));
    recovered = log->item_count();
  });
  if (!s.verify(recovered == count, "recovery finds every item in contiguous segments")) return;

  std::uint64_t received = 0;
  std::uint64_t misplaced = 0;  // wrong sequence number or wrong payload
  s.phase("drain", {.items = items, .bytes = payload_bytes}, [&] {
    log->drain([&](std::uint64_t sequence, std::string_view bytes) {
      if (sequence != received || bytes != payload_of(pool, sequence)) ++misplaced;
      ++received;
    });
  });
  s.verify(received == count && misplaced == 0,
           "the drain returns a gap-free, in-order sequence of exactly " + std::to_string(count) +
               " items with their payloads");
  s.verify(log->empty() && fs::is_empty(folder.path()),
           "the log is empty after the drain: no segment left on disk");
}
BENCHKIT_SCENARIO(scaling)
    .param("items", {1'000'000})
    .param("payload", {"uniform", "text", "json", "random"});
