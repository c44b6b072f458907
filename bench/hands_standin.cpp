// Writes the hands stand-in of tests/support/hands_standin.h (a 42-bone model, 53 motion files,
// 2,756 motions) under a folder, for bench/roundtrip_time.sh: `hands_standin OUT` makes
// OUT/meshes/dynamics/weapons/wpn_hand/wpn_hand_standin.ogf and its motion files.
#include <cstdio>

#include "hands_standin.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hands_standin OUT_DIR\n");
    return 2;
  }
  const auto s = boneyard::test::write_hands_standin(argv[1]);
  std::printf("%s: %zu motion files, %zu motions, %llu bytes of .omf, %llu bytes of .ogf\n", s.model.string().c_str(),
              s.motion_files, s.motions, static_cast<unsigned long long>(s.omf_bytes),
              static_cast<unsigned long long>(s.ogf_bytes));
  return 0;
}
