// `boneyard texture`'s files: the input read, the outputs the texture layer makes written through
// temporary files, and folders of textures converted in parallel.
#include "boneyard/registry/texture_files.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "boneyard/core/paths.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/interrupt.h"
#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/output_plan.h"
#include "parallel.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

// The outputs a texture conversion plans and checks (registry/output_plan.h); a batch shares one
// between its threads.
struct SharedPlan {
  OutputPlan plan;
  std::mutex mutex;
  std::vector<fs::path> preplanned;  // a batch's item outputs, planned before any thread starts
  Status add_write(const fs::path& path) {
    std::lock_guard lock(mutex);
    for (const auto& p : preplanned)
      if (p == path) return {};
    return plan.add_write(path);
  }
};

// Writes every output through a temporary file; renames them only when all were written, and
// takes back those already renamed when a later rename fails.
Status write_all(std::vector<texture::TextureOutput>& outputs, const texture::TextureConvertOptions& o,
                 std::vector<fs::path>* written, SharedPlan& plan) {
  for (const auto& x : outputs)
    if (auto planned = plan.add_write(x.path); !planned) return planned;
  std::vector<std::unique_ptr<AtomicFile>> files;
  for (auto& x : outputs) {
    auto f = AtomicFile::create(x.path);
    if (!f) return f.error();
    if (auto s = texture::write_texture_output(x, *f.value(), o); !s) return s;
    files.push_back(std::move(f).value());
  }
  std::vector<fs::path> done;
  for (auto& f : files) {
    if (auto s = f->commit(); !s) {
      for (const auto& p : done) {
        std::error_code ec;
        fs::remove(p, ec);
      }
      return s;
    }
    done.push_back(f->path());
  }
  if (written) written->insert(written->end(), done.begin(), done.end());
  return {};
}

Status convert_planned(const fs::path& input, const fs::path& output, const texture::TextureConvertOptions& o,
                       std::vector<fs::path>* written, Diagnostics* notes, SharedPlan& plan) {
  if (auto fits = texture::check_texture_output(output, o); !fits) return fits;
  auto file = FileData::open(input);
  if (!file) return file.error();
  auto outputs = texture::texture_outputs(std::move(file).value(), lower_extension(path_to_utf8(input.filename())), output, o, notes);
  if (!outputs) return outputs.error();
  return write_all(outputs.value(), o, written, plan);
}

// A batch's outputs: each item's, renamed when another item has it already (x.dds and x.ctxr ->
// x.png and x_ctxr.png; d1/x.dds and d2/x.dds -> x.png and x_dds.png, then _2, _3, ...), with a note saying so.
// An output that is one of the inputs refuses the whole batch before anything is written.
Status plan_batch(std::vector<TextureBatchItem>& items, SharedPlan& shared) {
  for (const auto& item : items) shared.plan.add_read(item.input, "the input file");
  for (auto& item : items) {
    const fs::path wanted = item.output;
    std::string input_ext = lower_extension(path_to_utf8(item.input.filename()));
    if (!input_ext.empty()) input_ext.erase(0, 1);
    for (int k = 1;; ++k) {
      auto planned = shared.plan.add_write(item.output);
      if (planned) break;
      const std::string& why = planned.error().message;
      if (why.find("refusing to overwrite") != std::string::npos || why.find("refusing to write over") != std::string::npos)
        return planned;
      const std::string suffix = k == 1 && !input_ext.empty() ? input_ext : std::to_string(k);
      item.output = wanted;
      item.output.replace_filename(path_from_utf8(path_to_utf8(wanted.stem()) + "_" + suffix + path_to_utf8(wanted.extension())));
    }
    if (item.output != wanted)
      item.notes.add(Severity::warning, 0, {}, "written as " + path_to_utf8(item.output.filename()) + ": another input's output is " +
                     path_to_utf8(wanted), {}, {});
    shared.preplanned.push_back(item.output);
  }
  return {};
}

}  // namespace

Status convert_texture(const fs::path& input, const fs::path& output, const texture::TextureConvertOptions& o,
                       std::vector<fs::path>* written, Diagnostics* notes) {
  SharedPlan plan;
  plan.plan.add_read(input, "the input file");
  return convert_planned(input, output, o, written, notes, plan);
}

Result<std::vector<TextureBatchItem>> convert_textures(const std::vector<fs::path>& inputs, const fs::path& output_dir,
                                                       std::string_view extension, const texture::TextureConvertOptions& o,
                                                       unsigned threads,
                                                       const std::function<void(const TextureBatchItem&)>& progress) {
  std::vector<TextureBatchItem> items;
  const bool to_png = extension == ".png";
  for (const auto& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      fs::path out = output_dir / in.filename();
      out.replace_extension(extension);
      items.push_back({in, out, {}, {}});
      continue;
    }
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      const std::string e = lower_extension(path_to_utf8(it->path().filename()));
      if (to_png ? (e == ".dds" || e == ".ctxr") : e == ".png") found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& p : found) {
      fs::path out = output_dir / p.lexically_relative(in);
      out.replace_extension(extension);
      items.push_back({p, out, {}, {}});
    }
  }
  SharedPlan plan;
  if (auto planned = plan_batch(items, plan); !planned) return planned.error();
  texture::DecodeBudget budget;
  registry::run_parallel(items.size(), threads, [&](std::size_t i) {
    TextureBatchItem& item = items[i];
    std::error_code ec;
    fs::create_directories(item.output.parent_path(), ec);
    try {
      // What this file decodes, from its header (a cross holds twelve faces' worth: the whole
      // budget); the file is opened again to convert it.
      std::uint64_t cost = 0;
      if (auto file = FileData::open(item.input))
        cost = o.cross ? kMaxTextureBytes
                       : texture::texture_decoded_bytes(file.value()->bytes(), lower_extension(path_to_utf8(item.input.filename())));
      const auto hold = budget.acquire(cost);
      item.status = convert_planned(item.input, item.output, o, nullptr, &item.notes, plan);
    } catch (const std::exception& e) {  // bad_alloc on a hostile file: this item fails alone
      item.status = Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}};
    }
    return true;
  }, [&](std::size_t i) {
    if (progress) progress(items[i]);
  });
  return items;
}

}  // namespace boneyard
