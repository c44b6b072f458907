// `boneyard texture IN... -o OUT`: game textures to PNG and back (the texture layer does the work).
#include <cstdio>
#include <memory>

#include "boneyard/core/paths.h"
#include "boneyard/registry/texture_request.h"
#include "commands.h"
#include "interrupt_scope.h"

namespace boneyard::cli {

namespace {

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

void print_item_warnings(const TextureBatchItem& item) {
  for (const auto& f : item.notes.findings())
    if (f.severity == Severity::warning)
      std::fprintf(stderr, "%s: warning: %s\n", path_to_utf8(item.input).c_str(), f.message.c_str());
}

// The registry runs the request (registry/texture_request.h, as boneyard.texture does); this prints it.
int run_texture(const TextureArgs& a) {
  TextureRequest r;
  for (const auto& i : a.inputs) r.inputs.push_back(path_from_utf8(i));
  r.output = path_from_utf8(a.output);
  r.mip = a.mip;
  r.cross = a.cross;
  r.format = a.format;
  r.no_mips = a.no_mips;
  r.jobs = a.jobs;
  r.template_path = path_from_utf8(a.template_file);
  r.names_file = path_from_utf8(a.names_file);
  r.alpha = a.alpha;
  r.layout = a.layout;
  std::size_t failed = 0, done = 0;
  int code = kExitOk;
  TextureOutcome out;
  const auto s = texture_request(r, out, [&](const TextureBatchItem& item) {
    ++done;
    print_item_warnings(item);
    if (item.status) return;
    ++failed;
    std::fprintf(stderr, "%s\n", describe_failure(item.status.error(), path_to_utf8(item.input)).c_str());
    code = std::max(code, exit_code_for(item.status.error()));
  });
  if (out.conversion == TextureConversion::pngs_to_tri)
    for (const auto& f : out.notes.findings())
      std::fprintf(stderr, "%s: %s%s\n", a.output.c_str(), f.severity == Severity::warning ? "warning: " : "", f.message.c_str());
  if (!s) {
    std::fprintf(stderr, "%s\n", out.failure.c_str());
    return std::max(exit_code_for(s.error()), InterruptScope::exit_code());
  }
  switch (out.conversion) {
    case TextureConversion::pngs_to_tri:
      std::printf("wrote %s\n", a.output.c_str());
      return kExitOk;
    case TextureConversion::one_file:
      for (const auto& f : out.notes.findings()) std::fprintf(stderr, "%s: %s\n", a.inputs[0].c_str(), f.message.c_str());
      for (const auto& p : out.written) std::printf("wrote %s\n", path_to_utf8(p).c_str());
      return kExitOk;
    case TextureConversion::tri_to_pngs:
    case TextureConversion::several:
      std::printf("%zu written, %zu failed (of %zu)\n", done - failed, failed, out.items.size());
      if (out.conversion == TextureConversion::several && out.items.empty())
        std::fprintf(stderr, "no .dds, .ctxr or .tri file found in the inputs\n");
      if (const int interrupted = InterruptScope::exit_code(); interrupted != 0) return interrupted;
      return code;
  }
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
                  "Texture files (.dds, .ctxr, .tri, .png), or folders searched for .dds, .ctxr and .tri (to .tri: folders of PNGs)")
      ->required();
  cmd->add_option("-o,--output", a->output,
                  "OUT.png / OUT.dds / OUT.ctxr for one input; a folder for several inputs, a folder or a .tri (PNGs; "
                  "a .tri among several inputs or in a folder: OUT/<its name>/); OUT.tri for PNGs (with --template)")
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
