#include "store/atomic_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>

namespace benchkit::store {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = ::testing::TempDir() + "/benchkit-atomic-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  static void put(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(folder_)) {
      found.push_back(entry.path().filename().string());
    }
    std::sort(found.begin(), found.end());
    return found;
  }

  std::string folder_;
};

// A process id that is certainly not running: a child that has exited and been reaped.
pid_t gone_process() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  return child;
}

TEST_F(AtomicFile, ReplacesTheFileWholeAndLeavesNoTemporary) {
  const std::string path = folder_ + "/result.json";
  put(path, "old\n");
  ASSERT_TRUE(write_file_atomically(path, "new\n").ok());
  EXPECT_EQ(read_file(path).value(), "new\n");
  EXPECT_EQ(names(), std::vector<std::string>{"result.json"});
}

// A writer's pieces, small ones and one larger than the buffer, arrive whole and in order.
TEST_F(AtomicFile, WritesWhatTheWriterPutsIntoTheStream) {
  const std::string path = folder_ + "/result.json";
  put(path, "old\n");
  const std::string large(200 * 1024, 'x');
  const auto written = write_file_atomically(path, [&](std::ostream& out) {
    out << "head ";
    for (int i = 0; i < 1000; ++i) out << i << ',';
    out << large << " tail\n";
  });
  ASSERT_TRUE(written.ok()) << written.error().message;
  std::string expected = "head ";
  for (int i = 0; i < 1000; ++i) expected += std::to_string(i) + ",";
  expected += large + " tail\n";
  EXPECT_EQ(read_file(path).value(), expected);
  EXPECT_EQ(names(), std::vector<std::string>{"result.json"});
}

TEST_F(AtomicFile, AWriterThatThrowsLeavesTheOldFileAndNoTemporary) {
  const std::string path = folder_ + "/result.json";
  put(path, "old\n");
  EXPECT_THROW((void)write_file_atomically(path,
                                           [](std::ostream& out) {
                                             out << std::string(100 * 1024, 'y');
                                             throw std::runtime_error("the writer broke");
                                           }),
               std::runtime_error);
  EXPECT_EQ(read_file(path).value(), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"result.json"});
}

// A content that fails midway (a history that stops answering) is abandoned: the old file stays,
// no temporary is left, and the writer's error comes back; a whole one is written.
TEST_F(AtomicFile, AWriterThatFailsMidwayLeavesTheOldFileAndReturnsItsError) {
  const std::string path = folder_ + "/trend.md";
  put(path, "old\n");
  const auto abandoned =
      write_file_unless_failed(path, [](std::ostream& out) -> std::optional<model::Error> {
        out << std::string(100 * 1024, 'y');
        return model::Error{"the history stopped answering", model::ErrorKind::failed};
      });
  ASSERT_FALSE(abandoned.ok());
  EXPECT_EQ(abandoned.error().message, "the history stopped answering");
  EXPECT_EQ(abandoned.error().kind, model::ErrorKind::failed);
  EXPECT_EQ(read_file(path).value(), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"trend.md"});
  const auto whole = write_file_unless_failed(path, [](std::ostream& out) {
    out << "new\n";
    return std::optional<model::Error>();
  });
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(read_file(path).value(), "new\n");
}

// A write(2) that fails while the content streams (here a file size limit: EFBIG, what a full
// disk's ENOSPC does in the same place) is named, and leaves the old file and no temporary. In a
// child process, so that the limit stays there.
TEST_F(AtomicFile, AFailedWriteWhileStreamingIsNamedAndKeepsTheOldFile) {
  const std::string path = folder_ + "/result.json";
  put(path, "old\n");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{16 * 1024, 16 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    const auto written =
        write_file_atomically(path, [](std::ostream& out) { out << std::string(300 * 1024, 'z'); });
    const bool named = !written.ok() &&
                       written.error().message.find("cannot write " + path) != std::string::npos &&
                       written.error().message.find(std::strerror(EFBIG)) != std::string::npos;
    _exit(named ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child did not see the write fail with its reason";
  EXPECT_EQ(read_file(path).value(), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"result.json"});
}

TEST_F(AtomicFile, CreatesMissingFolders) {
  const std::string path = folder_ + "/a/b/report.html";
  ASSERT_TRUE(write_file_atomically(path, "<html></html>\n").ok());
  EXPECT_EQ(read_file(path).value(), "<html></html>\n");
}

// What a writer killed between creating its temporary and renaming it leaves behind (the kill -9
// harness, tests/reliability/crash_writes.py, saw them pile up): the next write removes those of
// processes that are gone, and keeps a live writer's and other files' alone.
TEST_F(AtomicFile, TheNextWriteRemovesTemporariesOfKilledWriters) {
  const std::string path = folder_ + "/result.json";
  const std::string dead = "result.json.tmp." + std::to_string(gone_process());
  const std::string live = "result.json.tmp." + std::to_string(getppid());
  put(folder_ + "/" + dead, "{\"half\": ");
  put(folder_ + "/" + live, "{\"being written\": ");
  put(folder_ + "/other.json.tmp.1", "another file's");
  put(folder_ + "/result.json.tmp.notanumber", "not a temporary of ours");
  ASSERT_TRUE(write_file_atomically(path, "{}\n").ok());
  std::vector<std::string> kept{live, "other.json.tmp.1", "result.json",
                                "result.json.tmp.notanumber"};
  std::sort(kept.begin(), kept.end());
  EXPECT_EQ(names(), kept);
}

TEST_F(AtomicFile, AFailedReplaceLeavesTheTargetAndNoTemporary) {
  // A folder where the file should go: the rename fails after the temporary was written.
  const std::string path = folder_ + "/result.json";
  fs::create_directories(path + "/inside");
  const auto written = write_file_atomically(path, "new\n");
  ASSERT_FALSE(written.ok());
  EXPECT_THAT(written.error().message, HasSubstr("cannot replace " + path));
  EXPECT_TRUE(fs::is_directory(path + "/inside"));
  EXPECT_EQ(names(), std::vector<std::string>{"result.json"});
}

// A path that is no regular file (/dev/null, /dev/stdout on a pipe, a named pipe) is written
// into as it is: a rename over it would put a file in its place (as root, over /dev/null).
TEST_F(AtomicFile, ANamedPipeIsWrittenIntoAndStaysAPipe) {
  const std::string path = folder_ + "/pipe";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const pid_t reader = fork();
  if (reader == 0) {
    // The child reads the named pipe to its end and hands what it read back through `ends`;
    // should nothing ever open the pipe to write (a rename put a file in its place), it dies.
    ::alarm(10);
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const ssize_t sent = ::write(ends[1], text.data(), text.size());
    _exit(sent == static_cast<ssize_t>(text.size()) ? 0 : 1);
  }
  ::close(ends[1]);
  const auto written = write_file_atomically(path, "through the pipe\n");
  ASSERT_TRUE(written.ok()) << written.error().message;
  std::string received(64, '\0');
  const ssize_t got = ::read(ends[0], received.data(), received.size());
  ::close(ends[0]);
  int status = 0;
  waitpid(reader, &status, 0);
  ASSERT_GT(got, 0);
  received.resize(static_cast<std::size_t>(got));
  EXPECT_EQ(received, "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(path));
  EXPECT_EQ(names(), std::vector<std::string>{"pipe"});
}

// Through a symbolic link, the file it names is replaced and the link stays a link.
TEST_F(AtomicFile, ALinkStaysALinkAndTheFileItNamesIsReplaced) {
  const std::string file = folder_ + "/result.json";
  const std::string link = folder_ + "/latest.json";
  put(file, "old\n");
  fs::create_symlink("result.json", link);
  const auto written = write_file_atomically(link, "new\n");
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(written->path, link);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(file).value(), "new\n");
  EXPECT_EQ(names(), (std::vector<std::string>{"latest.json", "result.json"}));
}

TEST_F(AtomicFile, AMissingFolderThatCannotBeMadeIsNamed) {
  put(folder_ + "/file", "x");
  const auto written = write_file_atomically(folder_ + "/file/result.json", "new\n");
  ASSERT_FALSE(written.ok());
  EXPECT_THAT(written.error().message, HasSubstr(folder_ + "/file"));
}

// Records what the writer asks of the disk, and what the folder holds at each request.
class RecordingSync final : public DiskSync {
 public:
  explicit RecordingSync(std::string path, int folder_result = 0)
      : path_(std::move(path)), folder_result_(folder_result) {}
  int sync_file(int fd) override {
    calls.push_back("file");
    return system_disk_sync().sync_file(fd);
  }
  int sync_folder(const std::string& folder) override {
    calls.push_back("folder " + folder);
    content_at_folder_sync = read_file(path_).ok() ? read_file(path_).value() : "(missing)";
    return folder_result_ != 0 ? folder_result_ : system_disk_sync().sync_folder(folder);
  }
  std::vector<std::string> calls;
  std::string content_at_folder_sync;

 private:
  std::string path_;
  int folder_result_;
};

// A power cut can undo a rename that is only in the folder's cached entries: the folder is
// flushed after the rename (when the new file is already in place), the file before it.
TEST_F(AtomicFile, FlushesTheFileThenItsFolderAfterTheRename) {
  const std::string path = folder_ + "/result.json";
  put(path, "old\n");
  RecordingSync sync(path);
  ASSERT_TRUE(write_file_atomically(path, "new\n", sync).ok());
  EXPECT_EQ(sync.calls, (std::vector<std::string>{"file", "folder " + folder_}));
  EXPECT_EQ(sync.content_at_folder_sync, "new\n");
}

TEST_F(AtomicFile, AFileInTheCurrentFolderFlushesTheCurrentFolder) {
  const fs::path before = fs::current_path();
  fs::current_path(folder_);
  RecordingSync sync("result.json");
  const auto written = write_file_atomically("result.json", "new\n", sync);
  fs::current_path(before);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(sync.calls, (std::vector<std::string>{"file", "folder ."}));
}

TEST_F(AtomicFile, AFolderThatCannotBeFlushedIsReportedWithTheFileInPlace) {
  const std::string path = folder_ + "/result.json";
  put(path, "old\n");
  RecordingSync sync(path, EIO);
  const auto written = write_file_atomically(path, "new\n", sync);
  ASSERT_FALSE(written.ok());
  EXPECT_THAT(written.error().message, HasSubstr("cannot flush its folder " + folder_));
  EXPECT_THAT(written.error().message, HasSubstr("the new file is in place"));
  EXPECT_EQ(read_file(path).value(), "new\n");
  EXPECT_EQ(names(), std::vector<std::string>{"result.json"});
}

TEST_F(AtomicFile, TheSystemFlushOfAMissingFolderGivesItsReason) {
  EXPECT_EQ(system_disk_sync().sync_folder(folder_), 0);
  EXPECT_EQ(system_disk_sync().sync_folder(folder_ + "/missing"), ENOENT);
}

TEST_F(AtomicFile, ReadingAMissingFileNamesIt) {
  const auto read = read_file(folder_ + "/missing.json");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.error().message, HasSubstr("cannot read " + folder_ + "/missing.json"));
}

}  // namespace
}  // namespace benchkit::store
