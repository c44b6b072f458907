// libFuzzer target for the PNG reader (libpng behind our size checks). Properties beyond "no
// crash": what reads has width x height RGBA pixels, writes back and reads again to the same
// pixels; a small image also becomes a .ctxr with the PNG's chunks (never failing).
#include <cstdlib>

#include "boneyard/texture/ctxr.h"
#include "boneyard/texture/texture.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::texture;
  auto png = read_png(Bytes(data, size));
  if (!png) return 0;
  const Image& im = png->image;
  if (im.rgba.size() != std::size_t{im.width} * im.height * 4) std::abort();
  auto again = encode_png(im);
  if (!again) std::abort();
  auto back = read_png(again.value());
  if (!back || back->image.rgba != im.rgba) std::abort();
  if (std::uint64_t{im.width} * im.height <= 64 * 64 && !build_ctxr(im, png->chunks)) std::abort();
  return 0;
}
