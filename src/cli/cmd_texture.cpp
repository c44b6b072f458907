// `boneyard texture IN... -o OUT`: game textures to PNG and back (the texture layer does the work).
#include <cstdio>
#include <filesystem>
#include <memory>

#include "boneyard/core/text.h"
#include "boneyard/registry/texture_files.h"
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
};

bool is_texture_file_name(const fs::path& p) {
  const std::string e = lower_extension(p.string());
  return e == ".png" || e == ".dds" || e == ".ctxr";
}

int run_texture(const TextureArgs& a) {
  texture::TextureConvertOptions o;
  o.mip = a.mip;
  o.cross = a.cross;
  o.mips = !a.no_mips;
  if (!a.format.empty()) {
    o.format = *texture::parse_dds_output_format(a.format);  // CLI11 checked the name
    o.format_given = true;
  }
  std::error_code ec;
  const fs::path out(a.output);
  // One file to a name with an extension: that file (an unknown extension is an error below);
  // otherwise -o is a folder.
  const bool one_file = a.inputs.size() == 1 && !fs::is_directory(a.inputs[0], ec) && !fs::is_directory(out, ec) &&
                        out.has_extension();
  if (one_file) {
    if (same_file(a.inputs[0], out)) {
      std::fprintf(stderr, "%s: refusing to overwrite the input file; choose another output\n", a.output.c_str());
      return kExitUsage;
    }
    std::vector<fs::path> written;
    Diagnostics notes;
    const auto s = convert_texture(a.inputs[0], out, o, &written, &notes);
    if (!s) {
      std::fprintf(stderr, "%s\n", describe_failure(s.error(), a.inputs[0]).c_str());
      return std::max(exit_code_for(s.error()), InterruptScope::exit_code());
    }
    for (const auto& f : notes.findings()) std::fprintf(stderr, "%s: %s\n", a.inputs[0].c_str(), f.message.c_str());
    for (const auto& p : written) std::printf("wrote %s\n", p.string().c_str());
    return kExitOk;
  }
  // Several inputs or folders: PNGs into the output folder.
  if (is_texture_file_name(out) && !fs::is_directory(out, ec)) {
    std::fprintf(stderr, "%s: with several inputs or a folder, -o names a folder (PNGs are written into it)\n",
                 a.output.c_str());
    return kExitUsage;
  }
  std::vector<fs::path> inputs(a.inputs.begin(), a.inputs.end());
  std::size_t failed = 0, done = 0;
  int code = kExitOk;
  const auto items = convert_textures(inputs, out, ".png", o, a.jobs, [&](const TextureBatchItem& item) {
    ++done;
    if (item.status) return;
    ++failed;
    std::fprintf(stderr, "%s\n", describe_failure(item.status.error(), item.input.string()).c_str());
    code = std::max(code, exit_code_for(item.status.error()));
  });
  std::printf("%zu written, %zu failed (of %zu)\n", done - failed, failed, items.size());
  if (items.empty()) std::fprintf(stderr, "no .dds or .ctxr file found in the inputs\n");
  if (const int interrupted = InterruptScope::exit_code(); interrupted != 0) return interrupted;
  return code;
}

}  // namespace

void add_texture_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "texture", "Game textures (.dds, .ctxr) to PNG, and PNG to .dds or .ctxr; the output format follows -o's extension");
  auto a = std::make_shared<TextureArgs>();
  cmd->add_option("inputs", a->inputs, "Texture files (.dds, .ctxr, .png), or folders searched for .dds and .ctxr")->required();
  cmd->add_option("-o,--output", a->output,
                  "OUT.png / OUT.dds / OUT.ctxr for one input; a folder for several inputs or a folder (PNGs)")
      ->required();
  cmd->add_option("--mip", a->mip, "To PNG: write mip level N instead of the full-size image");
  cmd->add_flag("--cross", a->cross, "Cube map to PNG: one 4x3 cross instead of six _posx.._negz files");
  cmd->add_option("--format", a->format, "To .dds: dxt1, dxt5 or rgba (default: DXT1 when fully opaque, else DXT5)")
      ->check(CLI::IsMember({"dxt1", "dxt5", "rgba"}));
  cmd->add_flag("--no-mips", a->no_mips, "To .dds/.ctxr: the top level only (default: the full mip chain)");
  cmd->add_option("-j,--jobs", a->jobs, "Several inputs: worker threads (default: all cores)");
  cmd->callback([a, &exit_code] {
    InterruptScope interruptible;
    exit_code = std::max(exit_code, run_texture(*a));
  });
}

}  // namespace boneyard::cli
