// `boneyard texture`: the conversion the inputs and -o ask for, its options, and the files written,
// for the CLI and the Python module alike (registry/texture_request.h).
#include "boneyard/registry/texture_request.h"

#include <optional>

#include "boneyard/core/file_io.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/registry/convert_request.h"
#include "boneyard/registry/tri_files.h"
#include "boneyard/texture/dds/dds.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

bool is_texture_output_name(const fs::path& p) {
  const std::string e = lower_extension(path_to_utf8(p.filename()));
  return e == ".png" || e == ".dds" || e == ".ctxr";
}

bool is_tri_input(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return false;
  auto file = FileData::open(p);
  return file && detect_format(file.value()->bytes(), path_to_utf8(p.filename())) == "tri";
}

// A failure: the finding, and the one line the CLI prints about it.
Status request_failed(TextureOutcome& out, Finding f, std::string line) {
  out.failure = std::move(line);
  return f;
}
Status request_refused(TextureOutcome& out, const std::string& message) { return request_failed(out, usage_error_finding(message), message); }

std::optional<texture::TriLayout> tri_layout_of(const TextureRequest& r) {
  if (r.layout == "ps2") return texture::TriLayout::ps2;
  if (r.layout == "mc") return texture::TriLayout::mc;
  return std::nullopt;
}

// The --names list, when given.
Status load_request_names(const TextureRequest& r, TextureNames& names, TextureOutcome& out) {
  if (r.names_file.empty()) return {};
  if (auto read = load_texture_names(names, r.names_file); !read) return request_refused(out, read.error().message);
  return {};
}

// A .tri to a folder of PNGs, or PNGs back into a .tri (registry/tri_files.h).
Status run_tri_request(const TextureRequest& r, bool from_tri, TextureOutcome& out,
               const std::function<void(const TextureBatchItem&)>& progress) {
  if (r.mip != 0 || r.cross || !r.format.empty() || r.no_mips)
    return request_refused(out, "--mip, --cross, --format and --no-mips do not apply to .tri textures");
  TextureNames names;
  if (auto loaded = load_request_names(r, names, out); !loaded) return loaded;
  const std::string output = path_to_utf8(r.output);
  if (!from_tri) {
    out.conversion = TextureConversion::pngs_to_tri;
    PngToTriOptions o;
    o.template_path = r.template_path;
    if (!r.alpha.empty()) o.alpha = r.alpha == "scaled" ? texture::TriAlpha::scaled : texture::TriAlpha::raw;
    o.names = r.names_file.empty() ? nullptr : &names;
    o.names_file = r.names_file;
    o.layout = tri_layout_of(r);
    const auto s = convert_pngs_to_tri(r.inputs, r.output, o, &out.notes);
    if (!s) {
      // What is at fault is named in the message (a PNG, the template, a texture), not in the output.
      const Finding& f = s.error();
      return request_failed(out, f, f.usage || f.io ? describe_failure(f, output) : describe_edit_failure(f, output));
    }
    out.written.push_back(r.output);
    return {};
  }
  out.conversion = TextureConversion::tri_to_pngs;
  if (!r.template_path.empty()) return request_refused(out, "--template applies only to PNGs -> .tri (the .tri they came from)");
  std::error_code ec;
  const std::string out_ext = lower_extension(path_to_utf8(r.output.filename()));
  if (!fs::is_directory(r.output, ec) && (out_ext == ".png" || out_ext == ".tri" || out_ext == ".dds" || out_ext == ".ctxr"))
    return request_refused(out, output + ": a .tri holds several textures: -o names a folder, and each becomes FOLDER/<id or name>.png" +
                            (out_ext == ".tri" ? " (`boneyard convert IN.tri -o OUT.tri` rewrites a .tri)" : ""));
  TriToPngOptions o;
  o.alpha = r.alpha == "scaled" ? texture::TriAlpha::scaled : texture::TriAlpha::raw;
  o.names = r.names_file.empty() ? nullptr : &names;
  o.names_file = r.names_file;
  o.layout = tri_layout_of(r);
  auto items = convert_tri_to_pngs(r.inputs[0], r.output, o, r.jobs, progress);
  if (!items) return request_failed(out, items.error(), describe_failure(items.error(), path_to_utf8(r.inputs[0])));
  out.items = std::move(items).value();
  return {};
}

}  // namespace

Status texture_request(const TextureRequest& r, TextureOutcome& out, const std::function<void(const TextureBatchItem&)>& progress) {
  // The values CLI11 checks on the command line, checked again for every front end.
  if (!r.format.empty() && !texture::parse_dds_output_format(r.format))
    return request_refused(out, "--format: '" + escape_controls(r.format) + "' is not dxt1, dxt5 or rgba");
  if (!r.alpha.empty() && r.alpha != "raw" && r.alpha != "scaled")
    return request_refused(out, "--alpha: '" + escape_controls(r.alpha) + "' is not raw or scaled");
  if (!r.layout.empty() && r.layout != "ps2" && r.layout != "mc")
    return request_refused(out, "--layout: '" + escape_controls(r.layout) + "' is not ps2 or mc");
  if (r.inputs.empty()) return request_refused(out, "give the textures to convert (files or folders)");
  if (r.output.empty()) return request_refused(out, "-o OUT: the file or folder to write");

  // MGS2 .tri: alone, to a folder; or PNGs back into one.
  std::size_t tris = 0;
  for (const auto& i : r.inputs) tris += is_tri_input(i);
  const bool to_tri = lower_extension(path_to_utf8(r.output.filename())) == ".tri";
  // One .tri: its textures straight into -o; among other inputs, each .tri into a folder of its own
  // (below, as the .tri files a folder holds).
  if ((tris == 1 && r.inputs.size() == 1) || to_tri) return run_tri_request(r, tris > 0, out, progress);
  std::error_code ec;
  bool folders = false;
  for (const auto& i : r.inputs) folders = folders || fs::is_directory(i, ec);
  const bool tri_options = !r.names_file.empty() || !r.alpha.empty() || !r.layout.empty();
  if (!r.template_path.empty() || (tri_options && tris == 0 && !folders))
    return request_refused(out, "--template, --names, --alpha and --layout apply only to MGS2 .tri textures");
  texture::TextureConvertOptions o;
  o.mip = r.mip;
  o.cross = r.cross;
  o.mips = !r.no_mips;
  if (!r.format.empty()) {
    o.format = *texture::parse_dds_output_format(r.format);
    o.format_given = true;
  }
  const fs::path& first = r.inputs[0];
  // One file to a name with an extension: that file (an unknown extension is an error below);
  // otherwise -o is a folder.
  if (r.inputs.size() == 1 && !fs::is_directory(first, ec) && !fs::is_directory(r.output, ec) && r.output.has_extension()) {
    out.conversion = TextureConversion::one_file;
    const auto s = convert_texture(first, r.output, o, &out.written, &out.notes);
    if (!s) return request_failed(out, s.error(), describe_failure(s.error(), path_to_utf8(first)));
    return {};
  }
  // Several inputs or folders: PNGs into the output folder (a .tri's in a folder of its own).
  out.conversion = TextureConversion::several;
  if (is_texture_output_name(r.output) && !fs::is_directory(r.output, ec))
    return request_refused(out, path_to_utf8(r.output) + ": with several inputs or a folder, -o names a folder (PNGs are written into it)");
  TextureNames names;
  if (auto loaded = load_request_names(r, names, out); !loaded) return loaded;
  TriToPngOptions tri;
  tri.alpha = r.alpha == "scaled" ? texture::TriAlpha::scaled : texture::TriAlpha::raw;
  tri.names = r.names_file.empty() ? nullptr : &names;
  tri.names_file = r.names_file;
  tri.layout = tri_layout_of(r);
  auto items = convert_textures(r.inputs, r.output, ".png", o, r.jobs, progress, tri_options ? &tri : nullptr);
  if (!items) return request_failed(out, items.error(), items.error().message);
  out.items = std::move(items).value();
  return {};
}

}  // namespace boneyard
