// libFuzzer target for the .bones reader: any input must parse or fail cleanly; what parses must
// validate, describe itself, rewrite byte-exact, and lay out again (make_bones) as a file that
// reads back with the same bones.
#include <cstdlib>
#include <cstring>

#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/bones/bones_report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  auto bones = xray::read_bones(FileData::from_vector(std::vector<std::uint8_t>(data, data + size)));
  if (!bones) return 0;
  (void)xray::validate_bones(bones.value());
  const auto out = xray::write_bones(bones.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  JsonWriter w;
  xray::dump_bones(w, bones.value(), true);
  (void)xray::describe_bones(bones.value());
  const auto made = xray::make_bones(bones->bones, bones->parts.value_or(xray::BoneParts{}));
  auto again = xray::read_bones(FileData::from_vector(made));
  if (!again || again->bones.size() != bones->bones.size()) std::abort();
  return 0;
}
