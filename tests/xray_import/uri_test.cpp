// glTF buffer URIs confined to the .gltf's folder (issue 11): gltf::read with a base_dir.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

#include "boneyard/gltf/gltf_read.h"
#include "boneyard/registry/gltf_files.h"

namespace boneyard::gltf {
namespace {

namespace fs = std::filesystem;

// Times [0, 1/30] and two identity rotations (40 bytes), as the hostile suite's glTF.
std::string motion_bytes() {
  const float v[10] = {0, 1.0f / 30, 0, 0, 0, 1, 0, 0, 0, 1};
  return std::string(reinterpret_cast<const char*>(v), sizeof v);
}

std::string gltf_text(const std::string& uri) {
  return R"({"asset":{"version":"2.0"},"nodes":[{"name":"root"}],"buffers":[{"byteLength":40,"uri":")" + uri +
         R"("}],"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],)"
         R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"},)"
         R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],)"
         R"("animations":[{"samplers":[{"input":0,"output":1}],"channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}]}]})";
}

class Uris : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device rd;
    root_ = fs::temp_directory_path() / ("boneyard_uri_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
    fs::create_directories(root_ / "model");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const fs::path& rel, const std::string& bytes) { std::ofstream(root_ / rel, std::ios::binary) << bytes; }
  Result<scene::Scene> read_with(const std::string& uri, bool allow = false) {
    text_ = gltf_text(uri);
    ReadOptions o;
    Diagnostics w;
    return read(Bytes(reinterpret_cast<const std::uint8_t*>(text_.data()), text_.size()),
                gltf_buffer_files(root_ / "model", allow), o, w);
  }
  fs::path root_;
  std::string text_;
};

TEST_F(Uris, RelativeInsideIsRead) {
  fs::create_directories(root_ / "model" / "sub");
  write("model/sub/m b.bin", motion_bytes());
  auto s = read_with("sub/m%20b.bin");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->animations.size(), 1u);
}

TEST_F(Uris, OutsideIsRefusedTheSameWayWhetherItExistsOrNot) {
  auto missing = read_with("../outside.bin");
  ASSERT_FALSE(missing);
  write("outside.bin", motion_bytes());
  auto present = read_with("../outside.bin");
  ASSERT_FALSE(present);
  EXPECT_EQ(format_finding(missing.error(), "x"), format_finding(present.error(), "x"));
  EXPECT_FALSE(present.error().io);
  EXPECT_NE(present.error().message.find("leaves the glTF's folder"), std::string::npos);
  EXPECT_TRUE(read_with("../outside.bin", true)) << "--allow-outside-uris reads it";
  EXPECT_FALSE(read_with((root_ / "outside.bin").string()));
  EXPECT_TRUE(read_with((root_ / "outside.bin").string(), true));
  EXPECT_FALSE(read_with("%2e%2e/outside.bin"));
}

TEST_F(Uris, SymlinksAreFollowedOnlyInside) {
  write("outside.bin", motion_bytes());
  fs::create_symlink(root_ / "outside.bin", root_ / "model" / "abs.bin");
  fs::create_symlink("../outside.bin", root_ / "model" / "rel.bin");
  fs::create_directories(root_ / "model" / "data");
  write("model/data/m.bin", motion_bytes());
  fs::create_symlink("data/m.bin", root_ / "model" / "in.bin");
  fs::create_symlink(root_ / "model" / "data" / "m.bin", root_ / "model" / "abs_in.bin");
  EXPECT_FALSE(read_with("abs.bin"));
  EXPECT_FALSE(read_with("rel.bin"));
  EXPECT_TRUE(read_with("in.bin"));
  EXPECT_TRUE(read_with("abs_in.bin"));
  EXPECT_TRUE(read_with("rel.bin", true));
}

TEST_F(Uris, SchemesAndSpecialFiles) {
  EXPECT_FALSE(read_with("file:///etc/passwd", true));
  EXPECT_FALSE(read_with("http://example.com/x.bin", true));
  auto dot = read_with(".");
  ASSERT_FALSE(dot);
  EXPECT_TRUE(dot.error().io);
  EXPECT_NE(dot.error().message.find("is a directory"), std::string::npos) << dot.error().message;
  auto zero = read_with("/dev/zero", true);
  ASSERT_FALSE(zero);
  EXPECT_TRUE(zero.error().io);
}

}  // namespace
}  // namespace boneyard::gltf
