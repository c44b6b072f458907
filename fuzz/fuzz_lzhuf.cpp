// libFuzzer target for LZHuf (core/lzhuf.h): any payload decodes or fails cleanly within the bound
// (never more than 48 bytes per packed byte allocated); what decodes encodes again to a stream
// that decodes to the same bytes; and the input itself, as data, goes through encode and decode
// unchanged. The encoder's match search compares up to 60 bytes per window position, which the
// fuzzer's comparison tracing makes costly, and its code is reached by any input: it runs on 1
// input in 8 (fuzz_sample.h), the decoder on every one.
#include <cstdlib>
#include <cstring>

#include "boneyard/core/lzhuf.h"
#include "fuzz_sample.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  const Bytes input(data, size);
  if (auto decoded = lzhuf_decode(input, 0, "fuzz")) {
    const auto& out = decoded.value();
    if (out.size() != lzhuf_declared_size(input).value()) std::abort();
    if (fuzz::sampled(data, size, 8)) {
      const auto again = lzhuf_decode(lzhuf_encode(out));
      if (!again || again.value() != out) std::abort();
    }
  }
  if (fuzz::sampled(data, size, 8)) {
    const auto packed = lzhuf_encode(input);
    const auto back = lzhuf_decode(packed);
    if (!back || back.value().size() != size || (size > 0 && std::memcmp(back.value().data(), data, size) != 0))
      std::abort();
  }
  return 0;
}
