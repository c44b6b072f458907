// libFuzzer target for the CTXR reader. Properties beyond "no crash": whatever reads rewrites to
// the very same bytes; validate/info/dump never fail; a file whose levels all decode goes through
// its PNG chunk and back to the very same bytes (the unedited round trip of `boneyard texture`).
#include <cstdlib>
#include <cstring>

#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/ctxr/ctxr_report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::texture;
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  auto c = read_ctxr(file);
  if (!c) return 0;
  (void)validate_ctxr(c.value());
  (void)describe_ctxr(c.value());
  JsonWriter json;
  dump_ctxr(json, c.value(), true);
  const auto out = write_ctxr(c.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  auto top = decode_ctxr(c.value());
  if (!top) return 0;
  for (unsigned l = 1; l < c->levels.size(); ++l) (void)decode_ctxr(c.value(), l);
  const PngChunk chunk = ctxr_png_chunk(c.value());
  auto rebuilt = build_ctxr(top.value(), {chunk});
  if (!rebuilt || rebuilt.value() != out) std::abort();
  return 0;
}
