// libFuzzer target for the EVM reader: no crash, byte-exact rewrite of whatever reads, builder
// output that reads back.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "boneyard/evm.h"
#include "boneyard/mgs2_validate.h"
#include "mgs2/mgs2_documents.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::mgs2;
  const Bytes bytes(data, size);
  for (auto force : {std::optional<Layout>{}, std::optional<Layout>{Layout::ps2}, std::optional<Layout>{Layout::mc}}) {
    auto m = read_evm(bytes, force);
    if (!m) continue;
    Diagnostics d;
    validate_evm(m.value(), d);
    const auto out = write_evm(m.value());
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
    for (Layout target : {Layout::ps2, Layout::mc}) {
      auto built = build_evm(m.value(), target);
      if (built && !read_evm(Bytes(built.value().data(), built.value().size()), target)) std::abort();
    }
  }
  auto doc = open_evm_document(FileData::from_vector({data, data + size}), {});
  if (doc) {
    JsonWriter w;
    DumpOptions o;
    doc.value()->dump(w, o);
    o.raw = true;
    doc.value()->dump(w, o);
    (void)doc.value()->info();
  }
  return 0;
}
