// MGS2 motion archives (.mar) as Documents: info, dump, validation, a lossless rewrite or a layout
// conversion, and glTF of the motions on the skeleton of their .kms/.evm (--skeleton); and the
// motions a model conversion plays (--mar).
#include "boneyard/core/paths.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mar/mar.h"
#include "boneyard/mgs2/mar/mar_report.h"
#include "boneyard/mgs2/mar/mar_scene.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "formats.h"

namespace boneyard::registry {

namespace fs = std::filesystem;

namespace {

// The file an option names, prefixed to a finding about it.
Finding about_mar(const fs::path& file, Finding f) {
  f.message = path_to_utf8(file) + ": " + f.message;
  return f;
}

mgs2::MarExportOptions mar_options(const ConvertOptions& o, double scale, const TextureNames* names, const fs::path& source) {
  mgs2::MarExportOptions e;
  e.scale = scale;
  e.motions = o.settings.motions;
  e.names = names;
  e.source = path_to_utf8(source.filename());
  e.skip_broken = o.settings.force;
  return e;
}

// Errors of a .mar that stop the conversion that plays it, unless --force (then its motions that
// decode are converted and the rest left out with a warning).
Status mar_blockers(const mgs2::MarFile& mar, const fs::path& path, const ConvertOptions& o, Diagnostics& warnings) {
  const Diagnostics d = mgs2::validate_mar(mar);
  const auto errors = d.errors();
  if (errors.empty()) return {};
  if (!o.settings.force) {
    Finding f = about_mar(path, errors.front());
    f.message += " (" + std::to_string(errors.size()) + " error" + (errors.size() == 1 ? "" : "s") +
                 " in the .mar; validate lists them, --force converts the motions that decode)";
    return f;
  }
  warnings.add(Severity::warning, 0, {}, path_to_utf8(path) + ": " + std::to_string(errors.size()) +
                                             " validation errors; converted anyway (--force)");
  return {};
}

class MarDocument final : public Document {
 public:
  MarDocument(std::shared_ptr<const FileData> file, mgs2::MarFile model, Diagnostics notes, const TextureNames* names)
      : file_(std::move(file)), m_(std::move(model)), notes_(std::move(notes)), names_(names) {}

  const mgs2::MarFile& model() const { return m_; }
  std::string_view format() const override { return "mar"; }
  std::string info() const override { return mgs2::describe_mar(m_, names_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override {
    mgs2::dump_mar(out, m_, o.raw, o.names != nullptr ? o.names : names_);
  }
  Diagnostics validate() const override {
    Diagnostics d = notes_;
    d.append(mgs2::validate_mar(m_));
    return d;
  }
  std::vector<std::string> convert_targets() const override { return {".mar", ".glb", ".gltf"}; }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (ext == ".mar") return write_converted(rewrite(o), out);
    if (!is_gltf_extension(ext))
      return Finding{Severity::error, 0, {}, "unsupported conversion", ".mar, .glb or .gltf", std::string(ext)};
    Diagnostics warnings;
    const double scale = o.settings.scale != 0 ? o.settings.scale : mgs2::kDefaultScale;
    auto sc = skeleton_scene(o, scale, warnings);
    if (sc) {
      if (auto added = mgs2::add_mar_motions(sc.value(), m_, mar_options(o, scale, names_, o.input), warnings); !added)
        sc = added.error();
    }
    return encode_gltf(sc, warnings, ext, o, out);
  }

 private:
  // The same layout: the stored bytes. The other one: every MTCM laid out again, its archive
  // copied bit for bit; the result is read back and validated before anything is written.
  Result<std::vector<std::uint8_t>> rewrite(const ConvertOptions& o) const {
    const mgs2::Layout target = mgs2::parse_layout(o.settings.layout).value_or(m_.layout);
    if (target == m_.layout) return mgs2::write_mar(m_);
    std::vector<mgs2::MtcmContent> motions;
    motions.reserve(m_.motions.size());
    for (std::size_t i = 0; i < m_.motions.size(); ++i) {
      if (!m_.motions[i].readable) {
        Finding f = m_.motions[i].readable.error();
        f.path = "motion " + std::to_string(i) + (f.path.empty() ? "" : " " + f.path);
        f.message = "cannot lay out an unreadable motion in another layout: " + f.message;
        return f;
      }
      motions.push_back(mgs2::motion_content(m_.motions[i]));
    }
    auto bytes = mgs2::build_mar(target, m_.header.max_joint, motions);
    if (!bytes) return bytes;
    auto back = mgs2::read_mar(FileData::from_view(Bytes(bytes.value().data(), bytes.value().size()), nullptr), target);
    if (!back) return back.error();
    const Diagnostics checked = mgs2::validate_mar(back.value());
    for (const auto& f : checked.findings()) {
      if (f.severity != Severity::error) continue;
      Finding e = f;
      e.message = "the converted archive would not pass validation: " + e.message;
      return e;
    }
    return bytes;
  }

  // The model's skeleton (--skeleton, without its meshes), or a flat armature with a warning.
  Result<scene::Scene> skeleton_scene(const ConvertOptions& o, double scale, Diagnostics& warnings) const {
    const std::string name = path_to_utf8(o.input.stem());
    if (o.settings.skeleton.empty()) {
      warnings.add(Severity::warning, 0, "skeleton",
                   "no --skeleton: the motions play on a flat armature (every joint a root at the origin), which cannot show "
                   "them as the game does; give the .kms or .evm they belong to");
      scene::Scene s = mgs2::mar_flat_scene(m_, name.empty() ? "mar" : name);
      s.generator = "boneyard";
      return s;
    }
    const fs::path& path = o.settings.skeleton;
    auto file = open_option_file(o, path);
    if (!file) return io_error_finding("--skeleton", "cannot read " + path_to_utf8(path) + ": " + file.error().message);
    const std::string_view kind = detect_format(file.value()->bytes(), path_to_utf8(path));
    mgs2::Mgs2ExportOptions e;
    e.scale = scale;
    e.names = names_;
    Result<scene::Scene> sc = Finding{};
    if (kind == "kms") {
      auto model = mgs2::read_kms(file.value());
      if (!model) return about_mar(path, model.error());
      sc = mgs2::kms_to_scene(model.value(), e, warnings);
    } else if (kind == "evm") {
      auto model = mgs2::read_evm(file.value());
      if (!model) return about_mar(path, model.error());
      sc = mgs2::evm_to_scene(model.value(), e, warnings);
    } else {
      return usage_error_finding("--skeleton " + path_to_utf8(path) + " is not a .kms or .evm (" +
                                 (kind.empty() ? std::string("unrecognised") : std::string(kind)) +
                                 "): a .mar's motions play on the skeleton of an MGS2 model");
    }
    if (!sc) return about_mar(path, sc.error());
    sc.value().meshes.clear();  // the skeleton, as an .omf on its .ogf: the model itself is `convert MODEL --mar`
    sc.value().materials.clear();
    sc.value().images.clear();
    return sc;
  }

  std::shared_ptr<const FileData> file_;  // the views in m_ point into it
  mgs2::MarFile m_;
  Diagnostics notes_;
  const TextureNames* names_;
};

}  // namespace

Opened open_mar(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  Diagnostics notes;
  auto m = mgs2::read_mar(file, mgs2::parse_layout(options.layout), &notes);
  if (!m) return m.error();
  return std::unique_ptr<Document>(new MarDocument(std::move(file), std::move(m).value(), std::move(notes), options.names));
}

const mgs2::MarFile* mar_model_of(const Document& d) {
  const auto* m = dynamic_cast<const MarDocument*>(&d);
  return m != nullptr ? &m->model() : nullptr;
}

Status add_model_motions(scene::Scene& scene, double scale, const ConvertOptions& o, const TextureNames* names,
                         Diagnostics& warnings) {
  const fs::path& path = o.settings.mar;
  if (path.empty()) return {};
  auto file = open_option_file(o, path);
  if (!file) return io_error_finding("--mar", "cannot read " + path_to_utf8(path) + ": " + file.error().message);
  auto mar = mgs2::read_mar(file.value());
  if (!mar) return about_mar(path, mar.error());
  if (auto blocked = mar_blockers(mar.value(), path, o, warnings); !blocked) return blocked;
  if (auto added = mgs2::add_mar_motions(scene, mar.value(), mar_options(o, scale, names, path), warnings); !added)
    return about_mar(path, added.error());
  return {};
}

}  // namespace boneyard::registry
