// `boneyard texture IN... -o OUT`: game textures to PNG and back (the texture layer does the work).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/registry/convert_request.h"
#include "boneyard/registry/texture_files.h"
#include "boneyard/registry/tri_files.h"
#include "commands.h"
#include "interrupt_scope.h"

namespace boneyard::cli {

namespace {

namespace fs = std::filesystem;

struct TextureArgs {
  std::vector<std::string> inputs;
  std::string output;
  unsigned mip = 0;
  bool cross = false;
  std::string format;
  bool no_mips = false;
  unsigned jobs = 0;
  // MGS2 .tri
  std::string template_file, names_file, alpha, layout;
};

bool is_texture_file_name(const fs::path& p) {
  const std::string e = lower_extension(path_to_utf8(p.filename()));
  return e == ".png" || e == ".dds" || e == ".ctxr";
}

bool is_tri_file(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return false;
  auto file = FileData::open(p);
  return file && detect_format(file.value()->bytes(), path_to_utf8(p.filename())) == "tri";
}

void print_item_warnings(const TextureBatchItem& item) {
  for (const auto& f : item.notes.findings())
    if (f.severity == Severity::warning)
      std::fprintf(stderr, "%s: warning: %s\n", path_to_utf8(item.input).c_str(), f.message.c_str());
}

// A .tri to a folder of PNGs, or PNGs back into a .tri (registry/tri_files.h).
int run_tri(const TextureArgs& a, bool from_tri) {
  if (a.mip != 0 || a.cross || !a.format.empty() || a.no_mips) {
    std::fprintf(stderr, "--mip, --cross, --format and --no-mips do not apply to .tri textures\n");
    return kExitUsage;
  }
  TextureNames names;
  if (!a.names_file.empty())
    if (auto read = load_texture_names(names, path_from_utf8(a.names_file)); !read) {
      std::fprintf(stderr, "%s\n", read.error().message.c_str());
      return kExitUsage;
    }
  std::optional<texture::TriLayout> layout;
  if (a.layout == "ps2") layout = texture::TriLayout::ps2;
  if (a.layout == "mc") layout = texture::TriLayout::mc;
  const fs::path out = path_from_utf8(a.output);
  if (!from_tri) {
    PngToTriOptions o;
    o.template_path = path_from_utf8(a.template_file);
    if (!a.alpha.empty()) o.alpha = a.alpha == "scaled" ? texture::TriAlpha::scaled : texture::TriAlpha::raw;
    o.names = a.names_file.empty() ? nullptr : &names;
    o.names_file = path_from_utf8(a.names_file);
    o.layout = layout;
    std::vector<fs::path> inputs;
    for (const auto& i : a.inputs) inputs.push_back(path_from_utf8(i));
    Diagnostics notes;
    const auto s = convert_pngs_to_tri(inputs, out, o, &notes);
    for (const auto& f : notes.findings())
      std::fprintf(stderr, "%s: %s%s\n", a.output.c_str(), f.severity == Severity::warning ? "warning: " : "", f.message.c_str());
    if (!s) {
      // What is at fault is named in the message (a PNG, the template, a texture), not in the output.
      const Finding& f = s.error();
      std::fprintf(stderr, "%s\n", (f.usage || f.io ? describe_failure(f, a.output) : describe_edit_failure(f, a.output)).c_str());
      return std::max(exit_code_for(s.error()), InterruptScope::exit_code());
    }
    std::printf("wrote %s\n", a.output.c_str());
    return kExitOk;
  }
  if (!a.template_file.empty()) {
    std::fprintf(stderr, "--template applies only to PNGs -> .tri (the .tri they came from)\n");
    return kExitUsage;
  }
  std::error_code ec;
  const std::string out_ext = lower_extension(a.output);
  if (!fs::is_directory(out, ec) && (out_ext == ".png" || out_ext == ".tri" || out_ext == ".dds" || out_ext == ".ctxr")) {
    std::fprintf(stderr, "%s: a .tri holds several textures: -o names a folder, and each becomes FOLDER/<id or name>.png%s\n",
                 a.output.c_str(), out_ext == ".tri" ? " (`boneyard convert IN.tri -o OUT.tri` rewrites a .tri)" : "");
    return kExitUsage;
  }
  TriToPngOptions o;
  o.alpha = a.alpha == "scaled" ? texture::TriAlpha::scaled : texture::TriAlpha::raw;
  o.names = a.names_file.empty() ? nullptr : &names;
  o.names_file = path_from_utf8(a.names_file);
  o.layout = layout;
  std::size_t failed = 0, done = 0;
  int code = kExitOk;
  const auto items = convert_tri_to_pngs(path_from_utf8(a.inputs[0]), out, o, a.jobs, [&](const TextureBatchItem& item) {
    ++done;
    print_item_warnings(item);
    if (item.status) return;
    ++failed;
    std::fprintf(stderr, "%s\n", describe_failure(item.status.error(), path_to_utf8(item.input)).c_str());
    code = std::max(code, exit_code_for(item.status.error()));
  });
  if (!items) {
    std::fprintf(stderr, "%s\n", describe_failure(items.error(), a.inputs[0]).c_str());
    return std::max(exit_code_for(items.error()), InterruptScope::exit_code());
  }
  std::printf("%zu written, %zu failed (of %zu)\n", done - failed, failed, items.value().size());
  if (const int interrupted = InterruptScope::exit_code(); interrupted != 0) return interrupted;
  return code;
}

int run_texture(const TextureArgs& a) {
  // MGS2 .tri: alone, to a folder; or PNGs back into one.
  std::size_t tris = 0;
  for (const auto& i : a.inputs) tris += is_tri_file(path_from_utf8(i));
  const bool to_tri = lower_extension(a.output) == ".tri";
  if (tris > 0 && a.inputs.size() > 1) {
    std::fprintf(stderr, "a .tri converts alone: `boneyard texture IN.tri -o FOLDER`\n");
    return kExitUsage;
  }
  if (tris > 0 || to_tri) return run_tri(a, tris > 0);
  if (!a.template_file.empty() || !a.names_file.empty() || !a.alpha.empty() || !a.layout.empty()) {
    std::fprintf(stderr, "--template, --names, --alpha and --layout apply only to MGS2 .tri textures\n");
    return kExitUsage;
  }
  texture::TextureConvertOptions o;
  o.mip = a.mip;
  o.cross = a.cross;
  o.mips = !a.no_mips;
  if (!a.format.empty()) {
    o.format = *texture::parse_dds_output_format(a.format);  // CLI11 checked the name
    o.format_given = true;
  }
  std::error_code ec;
  const fs::path out = path_from_utf8(a.output);
  const fs::path first = path_from_utf8(a.inputs[0]);
  // One file to a name with an extension: that file (an unknown extension is an error below);
  // otherwise -o is a folder.
  const bool one_file = a.inputs.size() == 1 && !fs::is_directory(first, ec) && !fs::is_directory(out, ec) &&
                        out.has_extension();
  if (one_file) {
    std::vector<fs::path> written;
    Diagnostics notes;
    const auto s = convert_texture(first, out, o, &written, &notes);
    if (!s) {
      std::fprintf(stderr, "%s\n", describe_failure(s.error(), a.inputs[0]).c_str());
      return std::max(exit_code_for(s.error()), InterruptScope::exit_code());
    }
    for (const auto& f : notes.findings()) std::fprintf(stderr, "%s: %s\n", a.inputs[0].c_str(), f.message.c_str());
    for (const auto& p : written) std::printf("wrote %s\n", path_to_utf8(p).c_str());
    return kExitOk;
  }
  // Several inputs or folders: PNGs into the output folder.
  if (is_texture_file_name(out) && !fs::is_directory(out, ec)) {
    std::fprintf(stderr, "%s: with several inputs or a folder, -o names a folder (PNGs are written into it)\n",
                 a.output.c_str());
    return kExitUsage;
  }
  std::vector<fs::path> inputs;
  for (const auto& i : a.inputs) inputs.push_back(path_from_utf8(i));
  std::size_t failed = 0, done = 0;
  int code = kExitOk;
  const auto items = convert_textures(inputs, out, ".png", o, a.jobs, [&](const TextureBatchItem& item) {
    ++done;
    print_item_warnings(item);
    if (item.status) return;
    ++failed;
    std::fprintf(stderr, "%s\n", describe_failure(item.status.error(), path_to_utf8(item.input)).c_str());
    code = std::max(code, exit_code_for(item.status.error()));
  });
  if (!items) {
    std::fprintf(stderr, "%s\n", items.error().message.c_str());
    return kExitUsage;
  }
  std::printf("%zu written, %zu failed (of %zu)\n", done - failed, failed, items.value().size());
  if (items.value().empty()) std::fprintf(stderr, "no .dds or .ctxr file found in the inputs\n");
  if (const int interrupted = InterruptScope::exit_code(); interrupted != 0) return interrupted;
  return code;
}

}  // namespace

void add_texture_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "texture",
      "Game textures (.dds, .ctxr, MGS2 .tri) to PNG, and PNG to .dds, .ctxr or back into a .tri; the output format "
      "follows -o's extension");
  auto a = std::make_shared<TextureArgs>();
  cmd->add_option("inputs", a->inputs,
                  "Texture files (.dds, .ctxr, .tri, .png), or folders searched for .dds and .ctxr (to .tri: folders of PNGs)")
      ->required();
  cmd->add_option("-o,--output", a->output,
                  "OUT.png / OUT.dds / OUT.ctxr for one input; a folder for several inputs, a folder or a .tri (PNGs); "
                  "OUT.tri for PNGs (with --template)")
      ->required();
  cmd->add_option("--mip", a->mip, "To PNG: write mip level N instead of the full-size image");
  cmd->add_flag("--cross", a->cross, "Cube map to PNG: one 4x3 cross instead of six _posx.._negz files");
  cmd->add_option("--format", a->format, "To .dds: dxt1, dxt5 or rgba (default: DXT1 when fully opaque, else DXT5)")
      ->check(CLI::IsMember({"dxt1", "dxt5", "rgba"}));
  cmd->add_flag("--no-mips", a->no_mips, "To .dds/.ctxr: the top level only (default: the full mip chain)");
  cmd->add_option("-j,--jobs", a->jobs, "Several inputs or a .tri: worker threads (default: all cores)");
  cmd->add_option("--template", a->template_file, "PNGs to .tri: the .tri they came from (its entries take the images)");
  cmd->add_option("--names", a->names_file,
                  ".tri: texture names, one per line (PNGs named by name instead of id; StrCode24 gives the id)");
  cmd->add_option("--alpha", a->alpha,
                  ".tri: PNG alpha as the game stores it (raw, 0..128, the default) or scaled to 0..255 (scaled); to .tri "
                  "the default is what each PNG's trIa chunk says")
      ->check(CLI::IsMember({"raw", "scaled"}));
  cmd->add_option("--layout", a->layout, ".tri: read the entries as PS2 (0xA0 bytes) or Master Collection (0xC0) ones")
      ->check(CLI::IsMember({"ps2", "mc"}));
  cmd->callback([a, &exit_code] {
    InterruptScope interruptible;
    exit_code = std::max(exit_code, run_texture(*a));
  });
}

}  // namespace boneyard::cli
