// The format table: each entry sniffs bytes and opens a Document. Formats live in their folders;
// only this file knows the list.
#include "boneyard/document.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "boneyard/gltf_read.h"

#include "mgs2/mgs2_documents.h"
#include "xray/xray_documents.h"

namespace boneyard {

std::vector<Finding> Document::conversion_blockers(std::string_view, const ConvertOptions&) const {
  std::vector<Finding> errors;
  const Diagnostics found = validate();
  for (const auto& f : found.findings())
    if (f.severity == Severity::error) errors.push_back(f);
  return errors;
}

namespace {

std::string template_mismatch(const std::filesystem::path& tpl, std::string_view ext);

// A glTF file: read once (meshes, skin, animations sampled at 30 fps), then converted by the game
// that asks for it: .omf (X-Ray motions) or .kms/.evm (MGS2 models). It lives here because it is
// the one format both games' libraries read.
class GltfDocument final : public Document {
 public:
  GltfDocument(scene::Scene s, Diagnostics read_warnings) : s_(std::move(s)), read_(std::move(read_warnings)) {}
  std::string_view format() const override { return "gltf"; }

  std::string info() const override {
    std::size_t prims = 0, verts = 0, tris = 0;
    for (const auto& m : s_.meshes)
      for (const auto& p : m.primitives) ++prims, verts += p.vertex_count(), tris += p.indices.size() / 3;
    char b[256];
    std::snprintf(b, sizeof b, "glTF: %zu nodes, skin of %zu joints, %zu meshes (%zu primitives, %zu vertices, %zu triangles), "
                  "%zu materials, %zu animations (sampled at 30 fps)\n",
                  s_.skeleton.joints.size(), s_.skeleton.skin.size(), s_.meshes.size(), prims, verts, tris,
                  s_.materials.size(), s_.animations.size());
    std::string out = b;
    for (const auto& a : s_.animations) {
      const std::size_t frames = a.timelines.empty() ? 0 : a.timelines[0].times.size();
      std::snprintf(b, sizeof b, "  %zu frames, %zu channels: ", frames, a.channels.size());
      out += b + a.name + "\n";
    }
    return out;
  }

  void dump(JsonWriter& out, const DumpOptions&) const override {
    out.begin_object().field("format", "gltf").key("nodes").begin_array();
    for (const auto& j : s_.skeleton.joints) out.begin_object().field("name", j.name).field("parent", j.parent).end_object();
    out.end_array().key("meshes").begin_array();
    for (const auto& m : s_.meshes) {
      std::size_t verts = 0, tris = 0;
      for (const auto& p : m.primitives) verts += p.vertex_count(), tris += p.indices.size() / 3;
      out.begin_object()
          .field("name", m.name)
          .field("skinned", m.skinned)
          .field("primitives", std::uint64_t{m.primitives.size()})
          .field("vertices", std::uint64_t{verts})
          .field("triangles", std::uint64_t{tris})
          .end_object();
    }
    out.end_array().key("animations").begin_array();
    for (const auto& a : s_.animations) {
      const std::size_t frames = a.timelines.empty() ? 0 : a.timelines[0].times.size();
      out.begin_object()
          .field("name", a.name)
          .field("frames", std::uint64_t{frames})
          .field("channels", std::uint64_t{a.channels.size()})
          .end_object();
    }
    out.end_array().end_object();
  }

  Diagnostics validate() const override { return read_; }
  std::vector<std::string> convert_targets() const override { return {".omf", ".kms", ".evm"}; }
  unsigned convert_options(std::string_view ext) const override {
    if (ext == ".omf") return kOptSkeleton | kOptTemplate | kOptHq;
    return kOptTemplate | kOptLayout | kOptScale;  // .kms, .evm
  }
  std::string check_convert_options(std::string_view ext, unsigned given, const ConvertOptions& o) const override {
    if (auto err = Document::check_convert_options(ext, given, o); !err.empty()) return err;
    return (given & kOptTemplate) ? template_mismatch(o.template_omf, ext) : std::string();
  }

  Result<std::vector<std::uint8_t>> convert(std::string_view ext, const ConvertOptions& o) const override {
    if (ext == ".omf") return xray::gltf_scene_to_omf(s_, read_, o);
    if (ext == ".kms" || ext == ".evm") {
      if (o.warnings != nullptr)
        for (const auto& f : read_.findings()) o.warnings->add(f);
      return mgs2::scene_to_model(s_, ext, o);
    }
    return Finding{Severity::error, 0, "convert", "unsupported conversion", ".omf, .kms or .evm", std::string(ext)};
  }

 private:
  scene::Scene s_;
  Diagnostics read_;
};

// A --template must be a file of the target's format (an .omf for .omf, ...). Only the sniffers
// look at it here; a template that cannot be read is left to the conversion, which says why.
std::string template_mismatch(const std::filesystem::path& tpl, std::string_view ext) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(tpl, ec)) return {};
  auto opened = FileData::open(tpl);
  const auto* file = std::get_if<std::shared_ptr<const FileData>>(&opened);
  if (file == nullptr) return {};
  const std::string_view format = detect_format((*file)->bytes(), tpl.string());
  if (format.empty() || ext == "." + std::string(format)) return {};
  return "--template " + tpl.string() + " holds " + std::string(format) + " data: converting to " + std::string(ext) +
         " takes the original " + std::string(ext) + " file as template";
}

Result<std::unique_ptr<Document>> open_gltf_document(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  Diagnostics warnings;
  const auto base = std::filesystem::path(options.file_name).parent_path();
  gltf::ReadOptions ro;
  ro.require_animations = false;  // motions need them (checked on conversion to .omf), models do not
  ro.allow_outside_uris = options.allow_outside_uris;
  auto s = gltf::read(file->bytes(), base, ro, warnings);
  if (!s) return s.error();
  return std::unique_ptr<Document>(new GltfDocument(std::move(s).value(), std::move(warnings)));
}


struct FormatEntry {
  std::string_view name;
  int (*sniff)(Bytes bytes, std::string_view extension);  // 0 = not this format; higher = surer
  Result<std::unique_ptr<Document>> (*open)(std::shared_ptr<const FileData> file, const OpenOptions& options);
};

constexpr std::array kFormats = {
    FormatEntry{"omf", xray::sniff_omf, xray::open_omf_document},
    FormatEntry{"ogf", xray::sniff_ogf, xray::open_ogf_document},
    FormatEntry{"gltf", xray::sniff_gltf, open_gltf_document},  // both games: above
    FormatEntry{"kms", mgs2::sniff_kms, mgs2::open_kms_document},
    FormatEntry{"evm", mgs2::sniff_evm, mgs2::open_evm_document},
};

std::string lower_extension(std::string_view file_name) {
  const auto slash = file_name.find_last_of("/\\");
  const auto base = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  const auto dot = base.rfind('.');
  std::string ext(dot == std::string_view::npos ? std::string_view{} : base.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

const FormatEntry* best_format(Bytes bytes, std::string_view file_name) {
  const std::string ext = lower_extension(file_name);
  const FormatEntry* best = nullptr;
  int best_score = 0;
  for (const auto& f : kFormats) {
    const int score = f.sniff(bytes, ext);
    if (score > best_score) {
      best_score = score;
      best = &f;
    }
  }
  return best;
}

constexpr std::array<std::string_view, 10> kOptionNames = {"--layout",   "--input-layout", "--skeleton", "--meshes",
                                                           "--textures", "--keep-going",   "--template", "--scale",
                                                           "--hq",       "--names"};

}  // namespace

std::string_view convert_option_name(unsigned option) {
  for (std::size_t i = 0; i < kOptionNames.size(); ++i)
    if (option == (1u << i)) return kOptionNames[i];
  return "an option";
}

std::string convert_option_list(unsigned options) {
  std::string out;
  for (std::size_t i = 0; i < kOptionNames.size(); ++i)
    if (options & (1u << i)) out += (out.empty() ? "" : ", ") + std::string(kOptionNames[i]);
  return out.empty() ? "none" : out;
}

std::string Document::check_convert_options(std::string_view ext, unsigned given, const ConvertOptions&) const {
  const unsigned applies = convert_options(ext);
  const unsigned ignored = given & ~applies;
  if (ignored == 0) return {};
  const unsigned first = ignored & (~ignored + 1);  // the lowest bit: name one option per message
  return std::string(convert_option_name(first)) + " does not apply when converting " + std::string(format()) + " to " +
         std::string(ext) + " (options that do: " + convert_option_list(applies) + ")";
}

std::string_view detect_format(Bytes bytes, std::string_view file_name) {
  if (bytes.empty()) return {};
  const FormatEntry* f = best_format(bytes, file_name);
  return f ? f->name : std::string_view{};
}

Result<std::unique_ptr<Document>> open_document(std::shared_ptr<const FileData> file, std::string_view file_name,
                                                const OpenOptions& options) {
  const Bytes bytes = file->bytes();
  if (bytes.empty()) return Finding{Severity::error, 0, {}, "empty file", "a .omf, .ogf, .kms or .evm file", "0 bytes"};
  const FormatEntry* best = best_format(bytes, file_name);
  if (best == nullptr) {
    return Finding{Severity::error, 0, {}, "not a recognised file", "an X-Ray .omf/.ogf or an MGS2 .kms/.evm",
                   "unknown content (" + std::to_string(bytes.size()) + " bytes)"};
  }
  OpenOptions with_name = options;  // a .gltf finds its external buffers beside itself
  with_name.file_name = std::string(file_name);
  return best->open(std::move(file), with_name);
}

}  // namespace boneyard
