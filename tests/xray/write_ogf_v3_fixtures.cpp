// Writes the hand-laid OGF v3 fixtures (ogf_v3_fixture.h) into a folder: the fuzz seeds of
// fuzz_ogf (tests/fuzz_seeds/make_seeds.sh) and the models the external glTF checks convert
// (tests/gltf/run_external_checks.sh). Usage: write_ogf_v3_fixtures DIR
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "ogf_v3_fixture.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_ogf_v3_fixtures DIR\n");
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  std::filesystem::create_directories(dir);
  for (const auto& [name, bytes] : boneyard::test::v3::all_fixtures()) {
    std::ofstream out(dir / name, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", (dir / name).string().c_str());
      return 1;
    }
    std::printf("%s\n", name.c_str());
  }
  return 0;
}
