// libFuzzer target for the KMS reader, builder and document (see fuzz_mgs2.h).
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/kms/kms_report.h"
#include "fuzz_mgs2.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard::mgs2;
  return fuzz::run(
      data, size, [](boneyard::Bytes b, std::optional<Layout> f) { return read_kms(boneyard::FileData::from_view(b, nullptr), f); }, validate_kms,
      [](const auto& m) { return write_kms(m); }, [](const auto& m, Layout t) { return build_kms(m, t); },
      describe_kms, dump_kms);
}
