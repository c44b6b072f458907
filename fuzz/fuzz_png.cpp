// libFuzzer target for the PNG reader (libpng behind our size checks). Properties beyond "no
// crash": what reads stays within the decoded-size budget (core/limits.h kMaxTexturePixels) and
// has width x height RGBA pixels; an image up to 1024 x 1024 writes back and reads again to the
// same pixels, and up to 64 x 64 also becomes a .ctxr with the PNG's chunks (never failing).
// scripts/test.sh runs it, like every target, under -rss_limit_mb and -malloc_limit_mb: a header
// or chunk that claims gigabytes (seeds huge_size.png, huge_chunk.png) must be refused, not tried.
#include <cstdlib>

#include "boneyard/core/limits.h"
#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/texture.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::texture;
  auto png = read_png(Bytes(data, size));
  if (!png) return 0;
  const Image& im = png->image;
  if (std::uint64_t{im.width} * im.height > kMaxTexturePixels) std::abort();
  if (im.rgba.size() != std::size_t{im.width} * im.height * 4) std::abort();
  // The round trip is the same code at any size; at the budget (1 bit per pixel fits 8192 x 8192
  // in 64 KB of zlib) the image, its PNG and the image read back hold 768 MB and take seconds.
  if (std::uint64_t{im.width} * im.height > 1024 * 1024) return 0;
  auto again = encode_png(im);
  if (!again) std::abort();
  auto back = read_png(again.value());
  if (!back || back->image.rgba != im.rgba) std::abort();
  if (std::uint64_t{im.width} * im.height <= 64 * 64 && !build_ctxr(im, png->chunks)) std::abort();
  return 0;
}
