// libFuzzer target for the .ogf writers: any model that reads must rewrite byte for byte through
// the checked writer and read back the same; our export of it, imported with the model as
// template, must give the model's bytes again; an edited export (one vertex moved) and the
// template-less import must either fail cleanly or give a model that validates (the checked
// writer refuses anything else, so a success that does not read back is a crash here).
#include <cstdlib>
#include <cstring>

#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/xray_scene.h"

namespace {

using namespace boneyard;

void must_read_back(const std::vector<std::uint8_t>& bytes) {
  auto r = xray::read_ogf(FileData::from_vector(bytes));
  if (!r) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  auto ogf = xray::read_ogf(file);
  if (!ogf) return 0;
  auto rewritten = xray::rewrite_ogf(ogf.value());
  if (!rewritten) std::abort();  // the input's own errors are inherited: a rewrite never adds one
  if (rewritten->size() != size || std::memcmp(rewritten->data(), data, size) != 0) std::abort();
  // The scene our exporter makes (broken children left out), imported with the model as template.
  scene::Scene s;
  if (ogf->bones.empty()) {
    s.skeleton.name = "fuzz";
  } else {
    auto sc = xray::skeleton_scene(ogf.value(), "fuzz");
    if (!sc) return 0;
    s = std::move(sc).value();
  }
  Diagnostics w;
  xray::XrayExportOptions eo;
  eo.keep_going = true;
  if (!xray::add_meshes(s, ogf.value(), eo, w)) std::abort();
  xray::OgfImportOptions o;
  o.template_ogf = &ogf.value();
  auto same = xray::scene_to_ogf_bytes(s, o, w);
  if (same && *same != xray::write_ogf(ogf.value())) std::abort();  // unchanged children keep their bytes
  if (same) must_read_back(*same);
  [&] {  // move the first vertex there is
    for (auto& m : s.meshes)
      for (auto& p : m.primitives)
        if (!p.positions.empty()) {
          p.positions[0] += 0.25f;
          return;
        }
  }();
  if (auto out = xray::scene_to_ogf_bytes(s, o, w)) must_read_back(*out);
  xray::OgfImportOptions fresh;
  if (auto out = xray::scene_to_ogf_bytes(s, fresh, w)) must_read_back(*out);
  fresh.game = xray::Game::soc;
  if (auto out = xray::scene_to_ogf_bytes(s, fresh, w)) must_read_back(*out);
  return 0;
}
