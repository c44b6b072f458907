// Batch conversion: a sequential discovery pass (which OMFs do the models refer to?), then a
// pool of std::threads taking items from an atomic counter. Each item is independent: its own
// file mappings, scene and output, so a broken file fails alone.
#include "boneyard/xray_batch.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "boneyard/gltf.h"
#include "boneyard/xray_scene.h"

namespace boneyard::xray {

namespace fs = std::filesystem;

namespace {

std::string lower_ext(const fs::path& p) { return lower_ascii(p.extension().string()); }

fs::path canonical_or_self(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p : c;
}

std::shared_ptr<const FileData> open_or_finding(const fs::path& p, std::vector<Finding>& findings) {
  auto opened = FileData::open(p);
  if (auto* err = std::get_if<FileError>(&opened)) {
    findings.insert(findings.begin(), io_error_finding({}, "cannot read: " + err->message));
    return nullptr;
  }
  return std::get<std::shared_ptr<const FileData>>(std::move(opened));
}

bool iequal(std::string_view a, std::string_view b) { return lower_ascii(a) == lower_ascii(b); }

// --meshes, else the model's nearest "meshes" ancestor, else the batch's input folder (a loose
// tree of models and motions is most likely rooted there).
fs::path meshes_root_for(const fs::path& model, const BatchOptions& o) {
  if (!o.meshes_root.empty()) return o.meshes_root;
  fs::path r = default_meshes_root(model);
  return iequal(r.filename().string(), "meshes") ? r : o.input_dir;
}

void convert_one(BatchItem& item, const BatchOptions& o) {
  Diagnostics warnings;
  std::optional<Finding> error;
  auto data = open_or_finding(item.input, item.findings);
  if (!data) {
    item.status = BatchItem::Status::failed;
    return;
  }
  XrayExportOptions x{item.input, meshes_root_for(item.input, o), {}, o.textures, item.output, o.keep_going};
  Result<scene::Scene> sc = Finding{};
  if (lower_ext(item.input) == ".ogf") {
    auto ogf = read_ogf(data);
    sc = ogf ? ogf_to_scene(ogf.value(), x, warnings) : Result<scene::Scene>(ogf.error());
  } else {
    auto omf = read_omf(data);
    sc = omf ? omf_to_scene(omf->motions, x, warnings) : Result<scene::Scene>(omf.error());
  }
  if (!sc) {
    error = sc.error();
  } else {
    std::error_code ec;
    fs::create_directories(item.output.parent_path(), ec);
    if (auto err = gltf::write_files(sc.value(), item.output); !err.empty())
      error = Finding{Severity::error, 0, {}, err, {}, {}};
  }
  for (auto& f : warnings.findings())
    if (f.severity != Severity::info) item.findings.push_back(std::move(f));
  if (error) {
    item.findings.insert(item.findings.begin(), *error);
    item.status = BatchItem::Status::failed;
  } else {
    item.status = item.findings.empty() ? BatchItem::Status::converted : BatchItem::Status::warnings;
  }
}

}  // namespace

BatchResult convert_tree(const BatchOptions& o) {
  BatchResult result;
  std::vector<fs::path> ogfs, omfs;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(o.input_dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string ext = lower_ext(it->path());
    if (ext == ".ogf") ogfs.push_back(it->path());
    if (ext == ".omf") omfs.push_back(it->path());
  }
  std::sort(ogfs.begin(), ogfs.end());
  std::sort(omfs.begin(), omfs.end());

  // Which OMFs are some model's motions? Reading an OGF maps it and walks its chunks: cheap.
  std::set<fs::path> referenced;
  for (const auto& p : ogfs) {
    auto opened = FileData::open(p);
    if (!std::holds_alternative<std::shared_ptr<const FileData>>(opened)) continue;  // reported by its item
    auto ogf = read_ogf(std::get<std::shared_ptr<const FileData>>(std::move(opened)));
    if (!ogf) continue;
    const fs::path root = meshes_root_for(p, o);
    for (const auto& ref : ogf->motion_refs)
      for (const auto& f : resolve_motion_ref(root, ref)) referenced.insert(canonical_or_self(f));
  }

  std::set<fs::path> outputs;
  auto add_item = [&](const fs::path& in, bool omf) {
    BatchItem item;
    item.input = in;
    fs::path rel = in.lexically_relative(o.input_dir);
    rel.replace_extension(o.extension);
    // An .omf beside an .ogf of the same name would get the same output name.
    if (omf && outputs.count(o.output_dir / rel)) rel.replace_filename(rel.stem().string() + "_omf" + o.extension);
    item.output = o.output_dir / rel;
    outputs.insert(item.output);
    result.items.push_back(std::move(item));
  };
  for (const auto& p : ogfs) add_item(p, false);
  for (const auto& p : omfs)
    if (!referenced.count(canonical_or_self(p))) add_item(p, true);

  const std::size_t total = result.items.size();
  unsigned threads = o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(total, 1)));
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex report;
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < total;) {
      BatchItem& item = result.items[i];
      try {
        convert_one(item, o);
      } catch (const std::exception& e) {  // e.g. bad_alloc on a hostile file: fail this item only
        item.findings.insert(item.findings.begin(),
                             Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}});
        item.status = BatchItem::Status::failed;
      }
      std::lock_guard lock(report);
      ++done;
      if (o.progress) o.progress(done, total, item);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  for (const auto& item : result.items) {
    if (item.status == BatchItem::Status::converted) ++result.converted;
    if (item.status == BatchItem::Status::warnings) ++result.with_warnings;
    if (item.status == BatchItem::Status::failed) ++result.failed;
  }
  return result;
}

}  // namespace boneyard::xray
