// Writes the branching MGS2 fixtures (tests/mgs2/mgs2_branching_fixture.h) for the Blender round
// trip: OUT_DIR/branching.kms, branching.evm (PS2 layout), branching_mc.evm (Master Collection, the
// layout SeaLouse's EVM reader knows) and textures.txt (the texture names, for --names); and for
// the .cmdl interop tiers the standard fixtures in the MC layout (tests/mgs2/cmdl_fixture.h):
// standard_mc.kms (an extended unit, UV0 and UV1), plain_mc.kms (no UVs, repeated vertices),
// evm_mc.evm (an extended joint, 1.11.4) and evm_mc_large.evm, with their .cmdl as the spec lays
// them out in _win/. For the add-on's textures and motions: textured/branching.kms and .evm with
// textured/branching.tri beside them (tests/support/tri_fixture.h: its four textures carry the
// branching ids), and motions/branching.mar (tests/mgs2/mar_fixture.h, the standard PS2 motions,
// which drive up to the six joints of the branching models) with motions/motions.txt.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "boneyard/mgs2/strcode.h"
#include "cmdl_fixture.h"
#include "mar_fixture.h"
#include "mgs2_branching_fixture.h"
#include "tri_fixture.h"

namespace {
bool write(const std::string& path, const std::vector<std::uint8_t>& b) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return static_cast<bool>(out);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_mgs2_blender_fixtures OUT_DIR\n");
    return 2;
  }
  using namespace boneyard::test::mgs2fx;
  namespace cmdlfx = boneyard::test::cmdlfx;
  const std::string dir = argv[1];
  std::array<std::uint32_t, 4> ids{};
  std::string names;
  for (int i = 0; i < 4; ++i) ids[std::size_t(i)] = boneyard::mgs2::strcode(kBranchingTextureNames[i]), names += std::string(kBranchingTextureNames[i]) + "\n";
  boneyard::test::trifx::File tri = boneyard::test::trifx::standard(false);
  for (std::size_t i = 0; i < 4; ++i) tri.textures[i].id = ids[i];
  const std::string motion_names = boneyard::test::marfx::standard_motion_names();
  const bool ok = write(dir + "/branching.kms", kms_bytes(branching_kms(false, ids))) &&
                  write(dir + "/branching.evm", evm_bytes(branching_evm(false, ids))) &&
                  write(dir + "/branching_mc.evm", evm_bytes(branching_evm(true, ids))) &&
                  write(dir + "/textures.txt", std::vector<std::uint8_t>(names.begin(), names.end())) &&
                  write(dir + "/standard_mc.kms", kms_bytes(standard_kms(true, true))) &&
                  write(dir + "/plain_mc.kms", kms_bytes(cmdlfx::plain_kms(true))) &&
                  write(dir + "/evm_mc.evm", evm_bytes(standard_evm(true, false, false))) &&
                  write(dir + "/evm_mc_large.evm", evm_bytes(standard_evm(true, true, false))) &&
                  write(dir + "/_win/standard_mc.cmdl", cmdl_bytes(cmdlfx::standard_kms_cmdl(true))) &&
                  write(dir + "/_win/plain_mc.cmdl", cmdl_bytes(cmdlfx::plain_kms_cmdl())) &&
                  write(dir + "/_win/evm_mc.cmdl", cmdl_bytes(cmdlfx::standard_evm_cmdl(false))) &&
                  write(dir + "/_win/evm_mc_large.cmdl", cmdl_bytes(cmdlfx::standard_evm_cmdl(true))) &&
                  write(dir + "/textured/branching.kms", kms_bytes(branching_kms(false, ids))) &&
                  write(dir + "/textured/branching.evm", evm_bytes(branching_evm(false, ids))) &&
                  write(dir + "/textured/branching.tri", boneyard::test::trifx::build(tri)) &&
                  write(dir + "/motions/branching.mar", boneyard::test::marfx::mar_bytes(boneyard::test::marfx::standard_mar(false))) &&
                  write(dir + "/motions/motions.txt", std::vector<std::uint8_t>(motion_names.begin(), motion_names.end()));
  if (!ok) std::fprintf(stderr, "write_mgs2_blender_fixtures: cannot write to %s\n", dir.c_str());
  return ok ? 0 : 2;
}
