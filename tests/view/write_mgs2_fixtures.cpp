// Writes the hand-laid MGS2 test models (tests/mgs2/mgs2_fixture.h) as OUT_DIR/fixture.kms and
// OUT_DIR/fixture.evm, for the browser test of `boneyard view` (there are no real MGS2 samples).
#include <cstdio>
#include <fstream>
#include <string>

#include "mgs2_fixture.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_mgs2_fixtures OUT_DIR\n");
    return 2;
  }
  using namespace boneyard::test::mgs2fx;
  const std::string dir = argv[1];
  const auto kms = kms_bytes(standard_kms(false, false));
  const auto evm = evm_bytes(standard_evm(true, false, false));
  std::ofstream(dir + "/fixture.kms", std::ios::binary).write(reinterpret_cast<const char*>(kms.data()),
                                                              static_cast<std::streamsize>(kms.size()));
  std::ofstream(dir + "/fixture.evm", std::ios::binary).write(reinterpret_cast<const char*>(evm.data()),
                                                              static_cast<std::streamsize>(evm.size()));
  return 0;
}
