// libFuzzer target for the .mar reader, validator, report, key codec, writers and scene adapter.
// An input is a .mar, or a .kms/.evm followed by a .mar (split at the last "MARa"; seeds in
// tests/fuzz_seeds/fuzz_mar), whose motions then play on the model's skeleton.
// Properties beyond "no crash": a .mar that reads rewrites byte-exact; the keys of every motion that
// decodes, encoded again and laid out in either layout, read back to the same keys; every MTCM laid
// out in the other layout keeps its archive bit for bit.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mar/mar.h"
#include "boneyard/mgs2/mar/mar_report.h"
#include "boneyard/mgs2/mar/mar_scene.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "fuzz_sample.h"

namespace {

using namespace boneyard;
using namespace boneyard::mgs2;

bool same_keys(const MarMotionKeys& a, const MarMotionKeys& b) {
  if (a.rotations.size() != b.rotations.size() || a.translation.size() != b.translation.size() ||
      a.translation_initial != b.translation_initial || a.tail != b.tail)
    return false;
  for (std::size_t k = 0; k < a.translation.size(); ++k)
    if (a.translation[k].delta != b.translation[k].delta || a.translation[k].value != b.translation[k].value ||
        a.translation[k].extra != b.translation[k].extra)
      return false;
  for (std::size_t j = 0; j < a.rotations.size(); ++j) {
    if (a.rotations[j].size() != b.rotations[j].size()) return false;
    for (std::size_t k = 0; k < a.rotations[j].size(); ++k)
      if (a.rotations[j][k].delta != b.rotations[j][k].delta || a.rotations[j][k].value != b.rotations[j][k].value ||
          a.rotations[j][k].extra != b.rotations[j][k].extra)
        return false;
  }
  return true;
}

// Every layout reading of the input is validated, described and rewritten; the steps whose cost
// grows with the keys and whose code does not (dumps, the round trips, the scene) run on the
// layout the reader detects, and the dumps on a sample of the inputs (fuzz_sample.h).
void fuzz_mar(const std::uint8_t* data, std::size_t size, const scene::Scene* model) {
  const Bytes bytes(data, size);
  for (auto force : {std::optional<Layout>{}, std::optional<Layout>{Layout::ps2}, std::optional<Layout>{Layout::mc}}) {
    auto m = read_mar(FileData::from_view(bytes, nullptr), force);
    if (!m) continue;
    const MarFile& f = m.value();
    (void)validate_mar(f);
    Diagnostics skeleton;
    check_mar_skeleton(f, 6, skeleton);
    (void)describe_mar(f, nullptr);
    const auto out = write_mar(f);
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
    if (force) continue;
    if (fuzz::sampled(data, size, 4)) {
      JsonWriter w;
      dump_mar(w, f, false, nullptr);
      dump_mar(w, f, true, nullptr);
    }
    std::vector<MtcmContent> encoded, copied;
    std::vector<MarMotionKeys> keys;
    for (std::size_t i = 0; i < f.motions.size() && i < 64; ++i) {
      if (!f.motions[i].readable) continue;
      copied.push_back(motion_content(f.motions[i]));
      auto k = decode_motion_keys(f.motions[i], i);
      if (!k || k.value().tail.size() % 2 != 0) continue;
      auto e = encode_motion(k.value());
      if (!e) std::abort();
      encoded.push_back(std::move(e).value());
      keys.push_back(std::move(k).value());
    }
    for (Layout target : {Layout::ps2, Layout::mc}) {
      auto built = build_mar(target, f.header.max_joint, encoded);
      if (!built) std::abort();
      auto back = read_mar(FileData::from_view(Bytes(built.value().data(), built.value().size()), nullptr), target);
      if (!back || back.value().motions.size() != keys.size()) std::abort();
      for (std::size_t i = 0; i < keys.size(); ++i) {
        auto again = decode_motion_keys(back.value().motions[i], i);
        if (!again || !same_keys(keys[i], again.value())) std::abort();
      }
      auto relaid = build_mar(target, f.header.max_joint, copied);
      if (!relaid) std::abort();
      auto read_back = read_mar(FileData::from_view(Bytes(relaid.value().data(), relaid.value().size()), nullptr), target);
      if (!read_back || read_back.value().motions.size() != copied.size()) std::abort();
      for (std::size_t i = 0; i < copied.size(); ++i)
        if (read_back.value().motions[i].archive.size() != copied[i].archive.size() ||
            !std::equal(copied[i].archive.begin(), copied[i].archive.end(), read_back.value().motions[i].archive.begin()))
          std::abort();
    }
    if (size > 65536) continue;  // bound the scene's work
    Diagnostics warnings;
    MarExportOptions o;
    o.skip_broken = true;
    scene::Scene flat = mar_flat_scene(f, "fuzz");
    if (flat.skeleton.joints.size() <= 256) (void)add_mar_motions(flat, f, o, warnings);  // a header's max_joint of 65535 costs time, not code
    if (model != nullptr) {
      scene::Scene s = *model;
      o.skip_broken = false;
      (void)add_mar_motions(s, f, o, warnings);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t at = all.rfind("MARa");
  if (at == std::string_view::npos || at == 0) {
    fuzz_mar(data, size, nullptr);
    return 0;
  }
  const Bytes model(data, at);
  std::optional<scene::Scene> skeleton;
  Diagnostics warnings;
  if (auto k = read_kms(FileData::from_view(model, nullptr)); k) {
    if (auto s = kms_to_scene(k.value(), {}, warnings); s) skeleton = std::move(s).value();
  } else if (auto e = read_evm(FileData::from_view(model, nullptr)); e) {
    if (auto s = evm_to_scene(e.value(), {}, warnings); s) skeleton = std::move(s).value();
  }
  fuzz_mar(data + at, size - at, skeleton ? &*skeleton : nullptr);
  return 0;
}
