// libFuzzer target for the .cmdl reader, validator, report and writer, and for the code that reads
// a .cmdl together with its model (derivation, pair check, scene). An input is a .cmdl, or a .kms
// or .evm followed by a .cmdl (split at the last "MODL"; seeds in tests/fuzz_seeds/fuzz_cmdl).
// Properties beyond "no crash": a .cmdl that reads rewrites byte-exact; the .cmdl derived from any
// model that validates, reads back, validates without errors and pairs with its model without errors.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/mgs2/cmdl/cmdl_report.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/evm/evm.h"

namespace {

using namespace boneyard;
using namespace boneyard::mgs2;

void fuzz_cmdl(Bytes bytes) {
  auto m = read_cmdl(FileData::from_view(bytes, nullptr));
  if (!m) return;
  Diagnostics d;
  d.append(validate_cmdl(m.value()));
  JsonWriter w;
  dump_cmdl(w, m.value(), false);
  dump_cmdl(w, m.value(), true);
  (void)describe_cmdl(m.value());
  const auto out = write_cmdl(m.value());
  if (out.size() != bytes.size() || std::memcmp(out.data(), bytes.data(), bytes.size()) != 0) std::abort();
}

void validate_model(const KmsFile& m, Diagnostics& d) { d.append(validate_kms(m)); }
void validate_model(const EvmFile& m, Diagnostics& d) { d.append(validate_evm(m)); }

template <class Model>
void fuzz_pair(const Model& model, Bytes cmdl_bytes) {
  auto derived = derive_cmdl(model, nullptr, nullptr);
  Diagnostics model_findings;
  validate_model(model, model_findings);
  if (derived && !model_findings.has_errors()) {  // a broken model's .cmdl may repeat its faults
    auto back = read_cmdl(FileData::from_view(derived.value(), nullptr));
    if (!back) std::abort();
    Diagnostics d;
    d.append(validate_cmdl(back.value()));
    check_cmdl_pair(model, back.value(), d);
    if (d.has_errors()) std::abort();
  }
  auto c = read_cmdl(FileData::from_view(cmdl_bytes, nullptr));
  if (!c) return;
  Diagnostics d;
  check_cmdl_pair(model, c.value(), d);
  if (derived) (void)derive_cmdl(model, &c.value(), &d);  // the .cmdl as a template
  if (model.file_size > 65536) return;  // bound the scene's work
  Diagnostics warnings;
  (void)cmdl_to_scene(c.value(), model, Mgs2ExportOptions{}, warnings);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t at = all.rfind("MODL");
  if (at == std::string_view::npos) return 0;
  const Bytes cmdl(data + at, size - at);
  fuzz_cmdl(cmdl);
  if (at == 0) return 0;
  const Bytes model(data, at);
  if (auto k = read_kms(FileData::from_view(model, nullptr)); k) fuzz_pair(k.value(), cmdl);
  if (auto e = read_evm(FileData::from_view(model, nullptr)); e) fuzz_pair(e.value(), cmdl);
  return 0;
}
