// libFuzzer target for the EVM reader, builder and document (see fuzz_mgs2.h).
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/evm/evm_report.h"
#include "fuzz_mgs2.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard::mgs2;
  return fuzz::run(
      data, size, [](boneyard::Bytes b, std::optional<Layout> f) { return read_evm(boneyard::FileData::from_view(b, nullptr), f); }, validate_evm,
      [](const auto& m) { return write_evm(m); }, [](const auto& m, Layout t) { return build_evm(m, t); },
      describe_evm, dump_evm);
}
