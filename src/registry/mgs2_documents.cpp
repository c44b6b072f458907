// MGS2 models (.kms, .evm) as Documents: one class for both, the differences in a traits struct.
// The MGS2 library reads, reports, validates and builds the scene; this file routes targets.
#include "boneyard/core/paths.h"
#include "boneyard/mgs2/kms/kms_report.h"
#include "boneyard/mgs2/evm/evm_report.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/evm/evm.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

struct KmsTraits {
  using Model = mgs2::KmsFile;
  static constexpr std::string_view format = "kms";
  static constexpr std::string_view extension = ".kms";
  static constexpr auto read = &mgs2::read_kms;
  static constexpr auto describe = &mgs2::describe_kms;
  static constexpr auto dump = &mgs2::dump_kms;
  static constexpr auto validate = &mgs2::validate_kms;
  static constexpr auto validate_for_conversion = &mgs2::validate_kms;
  static constexpr auto to_scene = &mgs2::kms_to_scene;
  static Result<std::vector<std::uint8_t>> write(const Model& m, mgs2::Layout target, const ConvertSettings&,
                                                 Diagnostics* warnings) {
    return target == m.layout ? mgs2::write_kms(m) : mgs2::convert_kms_layout(m, target, warnings);
  }
};

struct EvmTraits {
  using Model = mgs2::EvmFile;
  static constexpr std::string_view format = "evm";
  static constexpr std::string_view extension = ".evm";
  static constexpr auto read = &mgs2::read_evm;
  static constexpr auto describe = &mgs2::describe_evm;
  static constexpr auto dump = &mgs2::dump_evm;
  static constexpr auto validate = &mgs2::validate_evm;
  static constexpr auto validate_for_conversion = &mgs2::validate_evm_for_conversion;
  static constexpr auto to_scene = &mgs2::evm_to_scene;
  // --n-mats rewrites only the n_mats fields; everything else stays as stored.
  static Result<std::vector<std::uint8_t>> write(const Model& m, mgs2::Layout target, const ConvertSettings& o,
                                                 Diagnostics*) {
    const Model* out = &m;
    Model edited;
    const auto reading = n_mats_option(o);
    if (!reading) return reading.error();
    if (reading.value()) {
      edited = m;
      if (auto r = mgs2::set_n_mats(edited, *reading.value()); !r) return r.error();
      out = &edited;
    }
    return target == out->layout ? mgs2::write_evm(*out) : mgs2::build_evm(*out, target);
  }
};

template <class Traits>
class Mgs2Document final : public Document {
 public:
  using Model = typename Traits::Model;
  Mgs2Document(std::shared_ptr<const FileData> file, Model model, Diagnostics notes, const TextureNames* names)
      : file_(std::move(file)), m_(std::move(model)), notes_(std::move(notes)), names_(names) {}

  const Model& model() const { return m_; }
  std::string_view format() const override { return Traits::format; }
  std::string info() const override { return Traits::describe(m_, names_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override {
    Traits::dump(out, m_, o.raw, o.names != nullptr ? o.names : names_);
  }
  Diagnostics validate() const override {
    Diagnostics d = notes_;
    d.append(Traits::validate(m_));
    return d;
  }
  // Only errors stop a conversion: checks that can only warn are skipped (Traits).
  std::vector<Finding> conversion_blockers(std::string_view, const ConvertOptions&) const override {
    Diagnostics d = notes_;
    d.append(Traits::validate_for_conversion(m_));
    return d.errors();
  }
  std::vector<std::string> convert_targets() const override { return {std::string(Traits::extension), ".glb", ".gltf"}; }
  // --cmdl / --no-cmdl only for a Master Collection output, whose layout is known here; --motions
  // picks motions of --mar.
  Status check_convert_options(std::string_view, const OptionSet& given, const ConvertOptions& o) const override {
    if (option_given(given, "motions") && o.settings.mar.empty())
      return usage_error_finding("--motions picks motions of the --mar file: give the .mar the model plays");
    const char* cmdl = option_given(given, "cmdl") ? "--cmdl" : option_given(given, "no-cmdl") ? "--no-cmdl" : nullptr;
    if (cmdl == nullptr || mgs2::parse_layout(o.settings.layout).value_or(m_.layout) == mgs2::Layout::mc) return {};
    return usage_error_finding(std::string(cmdl) + " does not apply: " + path_to_utf8(o.output) +
                               " is written in the PS2 layout; a .cmdl goes only with a Master Collection model (--layout mc)");
  }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (is_gltf_extension(ext)) {
      mgs2::Mgs2ExportOptions e;
      if (o.settings.scale != 0) e.scale = o.settings.scale;
      e.names = names_;
      Diagnostics warnings;
      auto sc = Traits::to_scene(m_, e, warnings);
      if (sc)
        if (auto played = add_model_motions(sc.value(), e.scale, o, names_, warnings); !played) sc = played.error();
      // The textures: --textures, then the model's .tri (docs/mgs2-gltf.md "Textures").
      if (sc)
        attach_textures(sc.value(), o.settings.textures, warnings, o.texture_cache,
                        mgs2_tri_files(o.input, m_.header.texture, o.settings.textures));
      return encode_gltf(sc, warnings, ext, o, out);
    }
    if (ext != Traits::extension)
      return Finding{Severity::error, 0, {}, "unsupported conversion", std::string(Traits::extension), std::string(ext)};
    // A rewrite takes the input's own .cmdl as its template: unedited, it comes back as it was.
    return write_mgs2_model(Traits::write(m_, mgs2::parse_layout(o.settings.layout).value_or(m_.layout), o.settings, o.warnings),
                            ext, o, o.input, out);
  }

 private:
  std::shared_ptr<const FileData> file_;  // the views in m_ point into it
  Model m_;
  Diagnostics notes_;
  const TextureNames* names_;
};

template <class Traits>
Opened open_model(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  Diagnostics notes;
  auto m = Traits::read(file, mgs2::parse_layout(options.layout), &notes);
  if (!m) return m.error();
  return std::unique_ptr<Document>(
      new Mgs2Document<Traits>(std::move(file), std::move(m).value(), std::move(notes), options.names));
}

}  // namespace

Result<std::optional<mgs2::NMatsReading>> n_mats_option(const ConvertSettings& settings) {
  if (settings.n_mats.empty()) return std::optional<mgs2::NMatsReading>();
  const auto reading = mgs2::parse_n_mats_reading(settings.n_mats);
  if (!reading) return Finding{Severity::error, 0, "--n-mats", "unknown n_mats reading", "spec or sealouse", settings.n_mats};
  return std::optional<mgs2::NMatsReading>(*reading);
}

const mgs2::KmsFile* kms_model_of(const Document& d) {
  const auto* m = dynamic_cast<const Mgs2Document<KmsTraits>*>(&d);
  return m != nullptr ? &m->model() : nullptr;
}
const mgs2::EvmFile* evm_model_of(const Document& d) {
  const auto* m = dynamic_cast<const Mgs2Document<EvmTraits>*>(&d);
  return m != nullptr ? &m->model() : nullptr;
}

Opened open_kms(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  return open_model<KmsTraits>(std::move(file), options);
}
Opened open_evm(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  return open_model<EvmTraits>(std::move(file), options);
}

}  // namespace boneyard::registry
