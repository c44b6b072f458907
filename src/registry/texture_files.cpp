// `boneyard texture`'s files: the input read, the outputs the texture layer makes written through
// temporary files, and folders of textures converted in parallel.
#include "boneyard/registry/texture_files.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "boneyard/core/paths.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/interrupt.h"
#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/output_plan.h"
#include "boneyard/registry/tri_files.h"
#include "boneyard/texture/tri/tri.h"
#include "parallel.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

// The outputs a texture conversion plans and checks (registry/output_plan.h); a batch shares one
// between its threads.
struct SharedPlan {
  OutputPlan plan;
  std::mutex mutex;
  std::set<fs::path> preplanned;  // a batch's item outputs, planned before any thread starts
  Status add_write(const fs::path& path) {
    std::lock_guard lock(mutex);
    if (preplanned.count(path) != 0) return {};
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
    shared.preplanned.insert(item.output);
  }
  return {};
}

// A .tri of a batch: read when the batch is planned (its textures' names), dropped, and read again
// by the first of its textures to be converted; dropped after the last, so that a folder of
// thousands of .tri files holds only the few being converted.
struct TriJob {
  fs::path path;
  std::vector<std::uint32_t> ids;  // each entry's id when planned
  std::mutex mutex;
  std::shared_ptr<const texture::TriFile> tri;
  std::optional<Finding> failed;
  std::size_t remaining = 0;
};

Result<texture::TriFile> read_tri_file(const fs::path& path, const TriToPngOptions& o) {
  auto file = FileData::open(path);
  if (!file) return file.error();
  return texture::read_tri(std::move(file).value(), o.layout);
}

Status convert_tri_entry(TriJob& job, std::size_t entry, const fs::path& output, const TriToPngOptions& o,
                         texture::DecodeBudget& budget) {
  std::shared_ptr<const texture::TriFile> tri;
  std::optional<Finding> failed;
  {
    std::lock_guard lock(job.mutex);
    if (!job.tri && !job.failed) {
      auto read = read_tri_file(job.path, o);
      if (read) job.tri = std::make_shared<const texture::TriFile>(std::move(read).value());
      else job.failed = read.error();
    }
    tri = job.tri;
    failed = job.failed;
  }
  const auto done = [&job] {
    std::lock_guard lock(job.mutex);
    if (--job.remaining == 0) job.tri.reset();
  };
  if (!tri) {
    done();
    return *failed;
  }
  if (entry >= tri->entries.size() || tri->entries[entry].id != job.ids[entry]) {
    done();
    return io_error_finding(path_to_utf8(job.path), "the file changed while the batch ran (its texture " + std::to_string(entry) +
                                                        " is not the one planned)");
  }
  Status written;
  {
    const auto hold = budget.acquire(texture::tri_decoded_bytes(*tri, entry));
    written = write_tri_png(*tri, entry, output, o);
  }
  done();
  return written;
}

// The folder each .tri of a batch writes into: its own name, unless a planned output is in it, a
// file has that name or another .tri's folder is it (ignoring case): then <stem>_tri, <stem>_2, ...
void plan_tri_folders(std::vector<std::pair<fs::path, fs::path>>& tris, const std::vector<TextureBatchItem>& items,
                      std::vector<std::string>& renamed) {
  std::set<std::string> file_keys, folder_keys;
  for (const auto& item : items) file_keys.insert(output_key(item.output));
  for (auto& [tri, folder] : tris) {
    const fs::path wanted = folder;
    std::string why;
    for (int k = 1;; ++k) {
      const std::string key = output_key(folder);
      const auto inside = file_keys.lower_bound(key + "/");
      std::error_code ec;
      const char* clash = folder_keys.count(key) != 0 ? "another .tri's folder"
                          : file_keys.count(key) != 0 ? "another input's output"
                          : (inside != file_keys.end() && inside->compare(0, key.size() + 1, key + "/") == 0)
                              ? "a folder another input's PNG goes into"
                          : (fs::exists(folder, ec) && !fs::is_directory(folder, ec)) ? "a file already"
                                                                                      : nullptr;
      if (clash == nullptr) break;
      if (why.empty()) why = clash;
      folder = wanted.parent_path() / path_from_utf8(path_to_utf8(wanted.filename()) + "_" + (k == 1 ? std::string("tri") : std::to_string(k)));
    }
    folder_keys.insert(output_key(folder));
    renamed.push_back(folder == wanted ? std::string()
                                       : "written into " + path_to_utf8(folder.filename()) + "/: " + path_to_utf8(wanted) + " is " + why);
  }
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
                                                       const std::function<void(const TextureBatchItem&)>& progress,
                                                       const TriToPngOptions* tri_options) {
  std::vector<TextureBatchItem> items;
  std::vector<std::pair<fs::path, fs::path>> tris;  // a .tri, the folder its PNGs go into
  const bool to_png = extension == ".png";
  const auto is_tri = [&](const fs::path& p) { return to_png && lower_extension(path_to_utf8(p.filename())) == ".tri"; };
  for (const auto& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      fs::path out = output_dir / in.filename();
      out.replace_extension(is_tri(in) ? std::string_view() : extension);
      if (is_tri(in)) tris.emplace_back(in, out);
      else items.push_back({in, out, {}, {}});
      continue;
    }
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      const std::string e = lower_extension(path_to_utf8(it->path().filename()));
      if (to_png ? (e == ".dds" || e == ".ctxr" || e == ".tri") : e == ".png") found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& p : found) {
      fs::path out = output_dir / p.lexically_relative(in);
      out.replace_extension(is_tri(p) ? std::string_view() : extension);
      if (is_tri(p)) tris.emplace_back(p, out);
      else items.push_back({p, out, {}, {}});
    }
  }
  if (tri_options != nullptr && tris.empty())
    return usage_error_finding("--names, --alpha and --layout apply only to MGS2 .tri textures, and the inputs hold no .tri");
  const TriToPngOptions defaults;
  const TriToPngOptions& tri_o = tri_options ? *tri_options : defaults;
  SharedPlan plan;
  for (const auto& t : tris) plan.plan.add_read(t.first, "the input file");
  if (!tri_o.names_file.empty()) plan.plan.add_read(tri_o.names_file, "the --names list");
  if (auto planned = plan_batch(items, plan); !planned) return planned.error();

  // Each .tri's textures, named as `boneyard texture X.tri -o FOLDER` names them.
  std::vector<std::string> renamed;
  plan_tri_folders(tris, items, renamed);
  std::vector<std::shared_ptr<TriJob>> job_of(items.size());
  std::vector<std::size_t> entry_of(items.size());
  std::vector<bool> failed_when_planned(items.size());
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const auto& [path, folder] = tris[t];
    const auto unreadable = [&, path = path, folder = folder](const Finding& f) {
      items.push_back({path, folder, f, {}});
      job_of.emplace_back();
      entry_of.push_back(0);
      failed_when_planned.push_back(true);
    };
    auto tri = read_tri_file(path, tri_o);
    if (!tri) {
      unreadable(tri.error());
      continue;
    }
    if (auto fits = check_tri_pixels(tri.value()); !fits) {
      unreadable(fits.error());
      continue;
    }
    Diagnostics naming;
    const std::vector<std::string> names = tri_png_names(tri.value(), tri_o.names, &naming);
    auto job = std::make_shared<TriJob>();
    job->path = path;
    job->remaining = names.size();
    for (std::size_t i = 0; i < names.size(); ++i) {
      const texture::TriEntry& e = tri.value().entries[i];
      job->ids.push_back(e.id);
      TextureBatchItem item{path, folder / path_from_utf8(names[i]), {}, {}};
      if (i == 0 && !renamed[t].empty()) item.notes.add(Severity::warning, 0, {}, renamed[t], {}, {});
      for (const auto& f : naming.findings())
        if (f.offset == e.offset) item.notes.add(f);
      if (auto planned = plan.plan.add_write(item.output); !planned) return planned.error();
      plan.preplanned.insert(item.output);
      items.push_back(std::move(item));
      job_of.push_back(job);
      entry_of.push_back(i);
      failed_when_planned.push_back(false);
    }
  }

  texture::DecodeBudget budget;
  registry::run_parallel(items.size(), threads, [&](std::size_t i) {
    TextureBatchItem& item = items[i];
    if (failed_when_planned[i]) return true;
    std::error_code ec;
    fs::create_directories(item.output.parent_path(), ec);
    if (job_of[i]) {
      try {
        item.status = convert_tri_entry(*job_of[i], entry_of[i], item.output, tri_o, budget);
      } catch (const std::exception& e) {  // bad_alloc on a hostile file: this texture fails alone
        item.status = Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}};
      }
      return true;
    }
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
