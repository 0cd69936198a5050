#include "formats/data_manifest.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

// sha256sum of "hello world\n".
const std::string kHello = "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447";

DataManifest sample() {
  DataManifest manifest;
  manifest.generator = "python3 make_corpus.py --rows 4000000";
  manifest.generator_version = "v1";
  manifest.files.push_back({"rows.csv", 12, kHello});
  manifest.files.push_back(
      {"sub/more.bin", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"});
  return manifest;
}

TEST(DataManifest, WritesAStableDocument) {
  EXPECT_EQ(
      manifest_to_json(sample()),
      "{\n"
      "  \"schema\": \"benchkit/data-manifest\",\n"
      "  \"version\": 1,\n"
      "  \"generator\": \"python3 make_corpus.py --rows 4000000\",\n"
      "  \"generator_version\": \"v1\",\n"
      "  \"files\": [\n"
      "    {\n"
      "      \"path\": \"rows.csv\",\n"
      "      \"bytes\": 12,\n"
      "      \"sha256\": \"" +
          kHello +
          "\"\n"
          "    },\n"
          "    {\n"
          "      \"path\": \"sub/more.bin\",\n"
          "      \"bytes\": 0,\n"
          "      \"sha256\": \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"\n"
          "    }\n"
          "  ]\n"
          "}\n");
}

TEST(DataManifest, ReadsBackWhatItWrote) {
  const std::string text = manifest_to_json(sample());
  const auto read = manifest_from_json(text, "m.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->generator, "python3 make_corpus.py --rows 4000000");
  EXPECT_EQ(read->generator_version, "v1");
  ASSERT_EQ(read->files.size(), 2u);
  EXPECT_EQ(read->files[0].path, "rows.csv");
  EXPECT_EQ(read->files[0].bytes, 12u);
  EXPECT_EQ(read->files[0].sha256, kHello);
  EXPECT_EQ(manifest_to_json(*read), text);
}

TEST(DataManifest, LeavesOutAnAbsentGeneratorAndAcceptsUpperCaseDigests) {
  std::string upper = kHello;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto read = manifest_from_json(
      R"({"schema":"benchkit/data-manifest","version":1,"files":[{"path":"a","bytes":12,"sha256":")" +
          upper + "\"}]}",
      "m.json");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->files[0].sha256, kHello);
  EXPECT_EQ(read->generator, "");
  EXPECT_THAT(manifest_to_json(*read), ::testing::Not(HasSubstr("generator")));
}

std::string error_of(const std::string& text) {
  const auto read = manifest_from_json(text, "data/m.json");
  EXPECT_FALSE(read) << "accepted: " << text;
  return read ? "" : read.error().message;
}

TEST(DataManifest, RefusesWhatIsNotAManifestNamingTheFileAndTheFix) {
  EXPECT_THAT(error_of(R"({"schema":"benchkit/result","version":1,"benchmarks":[]})"),
              HasSubstr("data/m.json: schema: is \"benchkit/result\", expected "
                        "\"benchkit/data-manifest\""));
  EXPECT_THAT(error_of(R"({"files":[]})"),
              HasSubstr("data/m.json: schema: missing: this is not a benchkit data manifest"));
  EXPECT_THAT(error_of(R"({"schema":"benchkit/data-manifest","version":2,"files":[]})"),
              HasSubstr("version: format version 2 is not supported"));
  EXPECT_THAT(error_of(R"([1, 2])"), HasSubstr("data/m.json: (top level): expected a JSON object"));
}

TEST(DataManifest, RefusesATruncatedFile) {
  const std::string text = manifest_to_json(sample());
  EXPECT_THAT(error_of(text.substr(0, text.size() / 2)),
              HasSubstr("data/m.json: not valid JSON (it ends too early: truncated?)"));
}

// Found by data_manifest_fuzzer (a 10-minute run): a number beyond a double's range escaped as
// nlohmann's out_of_range and ended the program.
TEST(DataManifest, RefusesANumberTooLargeForADouble) {
  const auto read = manifest_from_json(R"({"files": [{"bytes": 999E9999}]})", "m.json");
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(read.error().message, HasSubstr("m.json: not valid JSON"));
  EXPECT_THAT(read.error().message, HasSubstr("too large for a double"));
  EXPECT_THAT(read.error().message, HasSubstr("benchkit data manifest"));
}

TEST(DataManifest, SaysWhichEntryIsWrong) {
  const std::string head = R"({"schema":"benchkit/data-manifest","version":1,"files":[)";
  EXPECT_THAT(error_of(head + R"({"path":"a","bytes":1,"sha256":"abc"}]})"),
              HasSubstr("files[0].sha256: \"abc\" is not a SHA-256 digest"));
  EXPECT_THAT(error_of(head + R"({"path":"a","bytes":-1,"sha256":")" + kHello + "\"}]}"),
              HasSubstr("files[0].bytes: expected a non-negative integer, got -1"));
  EXPECT_THAT(error_of(head + R"({"bytes":1,"sha256":")" + kHello + "\"}]}"),
              HasSubstr("files[0].path: missing"));
  EXPECT_THAT(error_of(head + R"({"path":"","bytes":1,"sha256":")" + kHello + "\"}]}"),
              HasSubstr("files[0].path: is empty"));
  EXPECT_THAT(error_of(head + R"({"path":"a","bytes":1,"sha256":")" + kHello +
                       R"("},{"path":"a","bytes":1,"sha256":")" + kHello + "\"}]}"),
              HasSubstr("files[1].path: \"a\" is listed twice"));
  EXPECT_THAT(error_of(head + R"(7]})"), HasSubstr("files[0]: expected an object"));
  EXPECT_THAT(error_of(R"({"schema":"benchkit/data-manifest","version":1,"files":{}})"),
              HasSubstr("files: expected an array of files, got object"));
}

TEST(DataManifest, KnowsADigestWhenItSeesOne) {
  EXPECT_TRUE(is_sha256_hex(kHello));
  EXPECT_FALSE(is_sha256_hex(kHello.substr(1)));
  EXPECT_FALSE(is_sha256_hex("g" + kHello.substr(1)));
  EXPECT_FALSE(is_sha256_hex("A" + kHello.substr(1)));
}

}  // namespace
}  // namespace benchkit::formats
