// Writes the .mar fixtures (mar_fixture.h) and the branching models that play them, for the
// interop tests that run other readers on them (noesis_mar_test.py, mtar_gear_mar_test.py) and the
// external glTF checks (tests/gltf/run_mgs2_checks.sh).
//
//   write_mar_fixtures OUT_DIR
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mar_fixture.h"
#include "mgs2_branching_fixture.h"

namespace {

bool write(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_mar_fixtures OUT_DIR\n");
    return 2;
  }
  using namespace boneyard::test;
  const std::string dir = argv[1];
  const std::array<std::uint32_t, 4> ids{1, 2, 3, 4};
  const std::string names = marfx::standard_motion_names();
  const bool ok = write(dir + "/ps2.mar", marfx::mar_bytes(marfx::standard_mar(false))) &&
                  write(dir + "/mc.mar", marfx::mar_bytes(marfx::standard_mar(true))) &&
                  write(dir + "/branching.kms", mgs2fx::kms_bytes(mgs2fx::branching_kms(false, ids))) &&
                  write(dir + "/branching_mc.kms", mgs2fx::kms_bytes(mgs2fx::branching_kms(true, ids))) &&
                  write(dir + "/branching.evm", mgs2fx::evm_bytes(mgs2fx::branching_evm(false, ids))) &&
                  write(dir + "/motions.txt", std::vector<std::uint8_t>(names.begin(), names.end()));
  if (!ok) std::fprintf(stderr, "write_mar_fixtures: cannot write to %s\n", dir.c_str());
  return ok ? 0 : 2;
}
