// `boneyard view FILE... [-o page.html] [--open]`: one self-contained HTML page (src/view).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "boneyard/registry/output_plan.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/document.h"
#include "boneyard/view/view.h"
#include "cli_platform.h"
#include "commands.h"

namespace boneyard::cli {

namespace {

namespace fs = std::filesystem;

bool is_html_name(const fs::path& page) {
  const std::string ext = lower_extension(path_to_utf8(page.filename()));
  return ext == ".html" || ext == ".htm";
}

}  // namespace

void add_view_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "view", "Write one self-contained HTML page (works offline) that shows the files in a browser: "
              "model or skeleton, motions with a player, params and marks, info and findings");
  auto files = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto skeleton = std::make_shared<std::string>();
  auto meshes = std::make_shared<std::string>();
  auto textures = std::make_shared<std::string>();
  auto open = std::make_shared<bool>(false);
  auto allow_outside_uris = std::make_shared<bool>(false);
  cmd->add_option("files", *files, "Files to show (several: one page with a file switcher)")->required();
  cmd->add_option("-o,--output", *out, "The page to write, NAME.html (default: the first file + .html, e.g. wave.omf.html)");
  cmd->add_option("--skeleton", *skeleton,
                  "X-Ray .omf/.skls/.skl: the .ogf or .object whose skeleton plays the motions; MGS2 .cmdl: its .kms/.evm "
                  "(default: the one beside it)");
  cmd->add_option("--meshes", *meshes, "X-Ray: folder that motion refs are relative to (default: nearest 'meshes')");
  cmd->add_option("--textures", *textures,
                  "Textures root: X-Ray .dds tree (default: 'textures' beside the model's 'meshes'), MGS2 .ctxr or .tri "
                  "folder (the model's .tri beside it is found without it)");
  cmd->add_flag("--open", *open, "Open the page in the default browser (xdg-open; on Windows, the file's default program)");
  add_allow_outside_uris_option(*cmd, *allow_outside_uris);
  cmd->callback([files, out, skeleton, meshes, textures, open, allow_outside_uris, &exit_code] {
    if (!view::bundle_available()) {
      std::fprintf(stderr, "boneyard view: %s\n", view::bundle_unavailable_reason().c_str());
      exit_code = kExitUsage;
      return;
    }
    // FILE.html keeps FILE's extension (wave.omf.html), so wave.omf and wave.ogf get two pages.
    const fs::path page = path_from_utf8(out->empty() ? files->front() + ".html" : *out);
    const std::string shown = path_to_utf8(page);
    if (auto target = check_output_target(page); !target) {
      std::fprintf(stderr, "%s\n", target.error().message.c_str());
      exit_code = kExitUsage;
      return;
    }
    for (const auto& f : *files)
      if (same_target(path_from_utf8(f), page)) {
        std::fprintf(stderr, "%s: refusing to overwrite an input file; choose another output\n", shown.c_str());
        exit_code = kExitUsage;
        return;
      }
    if (!is_html_name(page)) {
      std::fprintf(stderr, "%s: the page must be an .html file (-o NAME.html)\n", shown.c_str());
      exit_code = kExitUsage;
      return;
    }
    if (!option_file_ok("--skeleton", *skeleton, exit_code)) return;
    std::vector<view::Item> items;
    OpenOptions open_options;
    open_options.allow_outside_uris = *allow_outside_uris;
    for (const auto& path : *files) {
      auto file = open_file_or_report(path, exit_code);
      if (!file) continue;
      auto doc = open_document(std::move(file), path, open_options);
      if (!doc) {
        std::fprintf(stderr, "%s\n", format_finding(doc.error(), path).c_str());
        exit_code = std::max(exit_code, exit_code_for(doc.error()));
        continue;
      }
      view::ItemOptions options;
      options.input = path_from_utf8(path);
      options.meshes_root = path_from_utf8(*meshes);
      options.textures = path_from_utf8(*textures);
      if (doc.value()->format() == "omf" || doc.value()->format() == "cmdl" || doc.value()->format() == "skls" ||
          doc.value()->format() == "skl")
        options.skeleton = path_from_utf8(*skeleton);
      items.push_back(view::make_item(*doc.value(), path, options));
      for (const auto& f : items.back().warnings) std::fprintf(stderr, "%s\n", format_finding(f, path).c_str());
      if (!items.back().glb.empty() || items.back().no_model.empty()) continue;
      std::fprintf(stderr, "%s: %s\n", path.c_str(), items.back().no_model.c_str());
    }
    if (items.empty()) return;  // every file failed to open: nothing to show
    std::string title = items.front().name;
    if (items.size() > 1) title += " and " + std::to_string(items.size() - 1) + " more";
    const std::string html = view::build_html(items, view::embedded_bundle(), title);
    if (auto written = write_file_atomic(page, Bytes(reinterpret_cast<const std::uint8_t*>(html.data()), html.size()));
        !written) {
      std::fprintf(stderr, "%s\n", written.error().message.c_str());
      exit_code = kExitUsage;
      return;
    }
    std::printf("wrote %s (%zu file%s)\n", shown.c_str(), items.size(), items.size() == 1 ? "" : "s");
    if (*open) {
      if (auto err = open_in_browser(page); !err.empty()) {
        std::fprintf(stderr, "%s\n", err.c_str());
        exit_code = kExitUsage;
      }
    }
  });
}

}  // namespace boneyard::cli
