// Writes the .tri fixtures of tests/support/tri_fixture.h into a folder, with what each texture
// must decode to, for readers no one here wrote (SeaLouse's tri.py, sealouse_tri_test.py):
//   DIR/<name>.tri                 the fixture
//   DIR/<name>.<id as %06x>.rgba   the texture's pixels, RGBA, alpha as stored
//   DIR/manifest.txt               "<name> <id %06x> <width> <height>" per texture
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tri_fixture.h"

namespace fx = boneyard::test::trifx;

namespace {

// A second fixture for the edges: a wide 8-bit texture over two pages across (TBW 4), an NPOT
// 4-bit one at an odd offset, CSAY 15 (the last pair of rows of the CLUT area), a 4-bit texture
// that uses 6 of its 16 colours (room for edits), and CBP past the first CLUT page.
fx::File edges(bool mc) {
  fx::File f;
  f.mc = mc;
  f.image_rows = 128;
  f.clut_rows = 64;
  f.header_width = 128;
  fx::Texture wide;
  wide.id = 0x0C0FFE;
  wide.psm = fx::kPsmt8, wide.tw = 8, wide.th = 6, wide.x = 3, wide.y = 1, wide.width = 200, wide.height = 40;
  wide.tbp0 = 0, wide.tbw = 4, wide.cbp = 0, wide.csa = 0;
  wide.indices = fx::pattern(200, 40, 256, 11);
  wide.clut = fx::palette(256, 13);
  fx::Texture odd;
  odd.id = 0x00BEEF;
  odd.psm = fx::kPsmt4, odd.tw = 6, odd.th = 5, odd.x = 5, odd.y = 3, odd.width = 37, odd.height = 19;
  odd.tbp0 = 64, odd.tbw = 2, odd.cbp = 4, odd.csa = 15 << 1;  // CSAX 0, CSAY 15
  odd.indices = fx::pattern(37, 19, 16, 12);
  odd.clut = fx::palette(16, 14);
  fx::Texture sparse;
  sparse.id = 0x5A5A5A;
  sparse.psm = fx::kPsmt4, sparse.tw = 5, sparse.th = 5, sparse.x = 0, sparse.y = 0, sparse.width = 32, sparse.height = 32;
  sparse.tbp0 = 64 + 32, sparse.tbw = 2, sparse.cbp = 32 + 4, sparse.csa = 1 | (3 << 1);  // second CLUT page
  sparse.indices = fx::pattern(32, 32, 6, 15);
  sparse.clut = fx::palette(16, 16);
  f.textures = {wide, odd, sparse};
  f.trailing = {0xDE, 0xAD};
  return f;
}

// A small one (about 6.5 KB), the fuzzer's seed: a 4-bit 32x8 and an 8-bit 16x4 texture in one
// 8-row image block, their CLUTs in a 16-row block.
fx::File tiny(bool mc) {
  fx::File f;
  f.mc = mc;
  f.image_rows = 8;
  f.clut_rows = 16;
  fx::Texture four;
  four.id = 0x00F00D;
  four.psm = fx::kPsmt4, four.tw = 5, four.th = 3, four.width = 32, four.height = 8;
  four.tbp0 = 0, four.tbw = 2, four.cbp = 0, four.csa = 1;  // CSAX 1: colours at x 8..15
  four.indices = fx::pattern(32, 8, 16, 21);
  four.clut = fx::palette(16, 22);
  fx::Texture eight;
  eight.id = 0x00CAFE;
  eight.psm = fx::kPsmt8, eight.tw = 4, eight.th = 2, eight.width = 16, eight.height = 4;
  eight.tbp0 = 1, eight.tbw = 2, eight.cbp = 0, eight.csa = 0;
  eight.indices = fx::pattern(16, 4, 256, 23);
  eight.clut = fx::palette(256, 24);
  // The 4-bit CLUT (x 8..15, rows 0..1) lies inside the 8-bit one's 16x16 area: give it those
  // colours (entries 8..15 and 24..31 of the 8-bit CLUT, with CSM1's swap of runs 8-15 and 16-23).
  for (std::uint32_t k = 0; k < 16; ++k) {
    const std::uint32_t x = 8 + k % 8, y = k / 8;  // position in the 16x16 area
    std::uint32_t p = y * 16 + x;                   // the 8-bit entry stored there
    if ((p / 8) % 4 == 1) p += 8;
    else if ((p / 8) % 4 == 2) p -= 8;
    four.clut[k] = eight.clut[p];
  }
  f.textures = {four, eight};
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_tri_fixtures DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  std::ofstream manifest(dir / "manifest.txt");
  const struct {
    const char* name;
    fx::File file;
  } fixtures[] = {{"standard_ps2", fx::standard(false)}, {"standard_mc", fx::standard(true)},
                  {"edges_ps2", edges(false)}, {"edges_mc", edges(true)},
                  {"tiny_ps2", tiny(false)}, {"tiny_mc", tiny(true)}};
  for (const auto& [name, file] : fixtures) {
    const auto bytes = fx::build(file);
    std::ofstream(dir / (std::string(name) + ".tri"), std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                                               static_cast<std::streamsize>(bytes.size()));
    for (const auto& t : file.textures) {
      char id[16];
      std::snprintf(id, sizeof id, "%06x", t.id);
      const auto rgba = fx::expected_rgba(t);
      std::ofstream(dir / (std::string(name) + "." + id + ".rgba"), std::ios::binary)
          .write(reinterpret_cast<const char*>(rgba.data()), static_cast<std::streamsize>(rgba.size()));
      manifest << name << ' ' << id << ' ' << t.width << ' ' << t.height << '\n';
    }
  }
  std::printf("%s\n", dir.string().c_str());
  return 0;
}
