// glTF -> .ogf entry points: the template and template-less imports (ogf_import_template.cpp,
// ogf_import_new.cpp), the --motion-refs/user data options applied as the edits apply them, and
// the written bytes read back and validated before anyone sees them.
#include "boneyard/xray/ogf/ogf_import.h"

#include "boneyard/xray/ogf/ogf_edit.h"
#include "ogf_import_internal.h"

namespace boneyard::xray {

Result<std::vector<std::uint8_t>> scene_to_ogf_bytes(const scene::Scene& scene, const OgfImportOptions& o,
                                                     Diagnostics& warnings, OgfImportStats* stats) {
  OgfImportStats local;
  OgfImportStats& st = stats ? *stats : local;
  st = {};
  auto bytes = o.template_ogf ? ogf_import::import_with_template(scene, o, warnings, st)
                              : ogf_import::import_new_model(scene, o, warnings, st);
  if (!bytes) return bytes.error();
  Diagnostics inherited;
  if (o.template_ogf) inherited = validate_ogf(*o.template_ogf);
  auto checked = checked_ogf_bytes(std::move(bytes).value(), &inherited);
  if (!checked || !o.template_ogf || (!o.motion_refs && !o.user_data)) return checked;
  // With a template, the options replace what the template holds, exactly as the edits do.
  auto model = read_ogf(FileData::from_vector(std::move(checked).value()));
  if (!model) return model.error();
  if (o.motion_refs) {
    auto r = set_motion_refs(model.value(), *o.motion_refs, o.game);
    if (!r) return r.error();
    for (const auto& w : r->warnings) warnings.add(Severity::warning, 0, "motion refs", w);
  }
  if (o.user_data) {
    auto r = set_user_data(model.value(), *o.user_data);
    if (!r) return r.error();
  }
  return write_ogf(model.value());
}

Result<OgfFile> scene_to_ogf(const scene::Scene& scene, const OgfImportOptions& o, Diagnostics& warnings,
                             OgfImportStats* stats) {
  auto bytes = scene_to_ogf_bytes(scene, o, warnings, stats);
  if (!bytes) return bytes.error();
  return read_ogf(FileData::from_vector(std::move(bytes).value()));
}

}  // namespace boneyard::xray
