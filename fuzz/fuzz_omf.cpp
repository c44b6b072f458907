// libFuzzer target for the OMF/OGF motion readers: any input must parse or fail cleanly, and
// whatever parses must validate, dump and rewrite to the very same bytes. The raw dump (every key)
// runs on the inputs up to 8 KB and a sample of the larger ones (fuzz_sample.h).
#include <cstdlib>
#include <cstring>

#include "boneyard/core/json_writer.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_report.h"
#include "fuzz_sample.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  if (auto omf = xray::read_omf(file)) {
    (void)xray::validate_omf(omf.value());
    JsonWriter json;
    xray::dump_omf(json, omf.value(), fuzz::small_or_sampled(data, size));
    (void)xray::describe_omf(omf.value());
    const auto out = xray::write_omf(omf.value());
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  }
  if (auto ogf = xray::read_ogf(file)) {
    (void)xray::validate_ogf(ogf.value());
    const auto out = xray::write_ogf(ogf.value());
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
    (void)xray::extract_omf(ogf.value());
  }
  return 0;
}
