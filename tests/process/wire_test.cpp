#include "process/wire.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace benchkit::process {
namespace {

TEST(Wire, RequestsRoundTrip) {
  RunRequest r;
  r.argv = {"zstd", "-3", "", "a b"};
  r.env = {"K=V", "EMPTY="};
  r.input_path = "/tmp/in";
  r.output = Output::file;
  r.output_path = "/tmp/out";
  r.timeout_seconds = 2.5;
  r.cpus = {0, 3};
  const auto back = wire::decode_request(wire::encode(r));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->argv, r.argv);
  EXPECT_EQ(back->env, r.env);
  EXPECT_EQ(back->input_path, r.input_path);
  EXPECT_EQ(back->output, Output::file);
  EXPECT_EQ(back->output_path, r.output_path);
  EXPECT_EQ(back->timeout_seconds, 2.5);
  EXPECT_EQ(back->cpus, r.cpus);
}

TEST(Wire, RecordsRoundTrip) {
  RunRecord r;
  r.started = true;
  r.wall_ns = 1234.5;
  r.resources.user_ns = 1000;
  r.resources.peak_rss_bytes = 1 << 20;
  r.resources.signal = 9;
  r.resources.timed_out = true;
  r.stderr_tail = "oops\n";
  r.stdout_bytes = 77;
  const auto back = wire::decode_record(wire::encode(r));
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->started);
  EXPECT_EQ(back->wall_ns, 1234.5);
  EXPECT_EQ(back->resources.user_ns, 1000);
  EXPECT_FALSE(back->resources.system_ns.has_value());
  EXPECT_EQ(back->resources.peak_rss_bytes, 1 << 20);
  EXPECT_EQ(back->resources.signal, 9);
  EXPECT_FALSE(back->resources.exit_code.has_value());
  EXPECT_TRUE(back->resources.timed_out);
  EXPECT_EQ(back->stderr_tail, "oops\n");
  EXPECT_EQ(back->stdout_bytes, 77u);
}

TEST(Wire, DamagedMessagesAreRefused) {
  RunRequest r;
  r.argv = {"true"};
  std::string bytes = wire::encode(r);
  EXPECT_FALSE(wire::decode_request(bytes.substr(0, bytes.size() - 1)));
  EXPECT_FALSE(wire::decode_request(bytes + "x"));
  EXPECT_FALSE(wire::decode_record("garbage"));
}

TEST(Wire, FramesTravelThroughAPipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_TRUE(wire::write_frame(fds[1], "hello"));
  ASSERT_TRUE(wire::write_frame(fds[1], ""));
  close(fds[1]);
  std::string frame;
  ASSERT_TRUE(wire::read_frame(fds[0], frame));
  EXPECT_EQ(frame, "hello");
  ASSERT_TRUE(wire::read_frame(fds[0], frame));
  EXPECT_EQ(frame, "");
  EXPECT_FALSE(wire::read_frame(fds[0], frame));  // end of file
  close(fds[0]);
}

}  // namespace
}  // namespace benchkit::process
