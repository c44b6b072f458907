// boneyard.convert_tree: `boneyard convert --recursive` from Python. The keywords are the option
// table's rows (the batch refuses those it does not read, as the CLI does); the batch is the
// registry's convert_tree, run on a thread of its own so that the calling thread stays free to
// call `progress` and to let Python handle Ctrl-C between files.
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "boneyard/registry/batch.h"
#include "py_convert_options.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

const char* status_word(BatchItem::Status s) {
  switch (s) {
    case BatchItem::Status::converted: return "converted";
    case BatchItem::Status::warnings: return "warnings";
    case BatchItem::Status::failed: return "failed";
    case BatchItem::Status::interrupted: return "interrupted";
  }
  return "failed";
}

// The batch's worker threads hand each finished item to the calling thread and wait until it has
// been shown (`progress`) and Python has handled its signals: a Ctrl-C between two files stops the
// batch before a worker takes another one.
class Handoff {
 public:
  // Worker side (the batch's progress callback, called under the batch's lock).
  void finished(std::size_t done, std::size_t total, const BatchItem& item) {
    std::unique_lock lock(mutex_);
    pending_ = Pending{done, total, &item};
    changed_.notify_all();
    changed_.wait(lock, [&] { return !pending_; });
  }
  void batch_over() {
    std::lock_guard lock(mutex_);
    over_ = true;
    changed_.notify_all();
  }

  struct Pending {
    std::size_t done, total;
    const BatchItem* item;
  };
  // Calling side, without the GIL: the next finished item, or nothing when `wait` passed first
  // or the batch is over (over() says which).
  std::optional<Pending> next(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, wait, [&] { return pending_.has_value() || over_; });
    return pending_;
  }
  void shown() {
    std::lock_guard lock(mutex_);
    pending_.reset();
    changed_.notify_all();
  }
  bool over() {
    std::lock_guard lock(mutex_);
    return over_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<Pending> pending_;
  bool over_ = false;
};

// How often the calling thread lets Python handle a signal while no file finishes (one large
// model can take seconds): Ctrl-C then abandons the files in progress, as in the CLI.
constexpr std::chrono::milliseconds kSignalPoll{100};

py::object run_tree(const BatchOptions& options, const py::object& progress) {
  Handoff handoff;
  BatchOptions o = options;
  o.progress = [&handoff](std::size_t done, std::size_t total, const BatchItem& item) {
    handoff.finished(done, total, item);
  };
  // Each file is shown as it finishes: the worker waits for Python, so an exception from
  // `progress` stops the batch after the files in progress, whatever the machine's speed.
  o.progress_as_finished = true;
  BatchResult result;
  std::exception_ptr batch_failure;     // what the batch thread threw (it never should)
  std::exception_ptr callback_failure;  // a C++ exception on this thread (casting an item for `progress`)
  std::optional<py::error_already_set> stopped_by;  // what Python raised: Ctrl-C, or `progress`'s exception
  bool we_interrupted = false;
  // With the GIL held: an exception stops the batch at its next safe point.
  auto stop = [&] {
    if (interrupted()) return;
    request_interrupt(SIGINT);
    we_interrupted = true;
  };
  {
    py::gil_scoped_release unlocked;
    std::thread batch([&] {
      try {
        result = convert_tree(o);
      } catch (...) {
        batch_failure = std::current_exception();
      }
      handoff.batch_over();
    });
    while (true) {
      const auto item = handoff.next(kSignalPoll);
      if (!item && handoff.over()) break;
      {
        py::gil_scoped_acquire gil;
        try {
          if (item && !progress.is_none() && !stopped_by && !callback_failure)
            progress(item->done, item->total, py::cast(*item->item, py::return_value_policy::copy));
          if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        } catch (py::error_already_set& e) {
          if (!stopped_by) stopped_by.emplace(std::move(e));
          stop();
        } catch (...) {
          if (!callback_failure) callback_failure = std::current_exception();
          stop();
        }
      }
      if (item) handoff.shown();
    }
    batch.join();
  }
  if (we_interrupted) {
    remove_temporaries();  // the workers removed theirs; this catches any the library missed
    clear_interrupt();     // the interruption was this call's, not the process's
  }
  if (batch_failure) std::rethrow_exception(batch_failure);
  if (callback_failure) std::rethrow_exception(callback_failure);
  py::object out = py::cast(std::move(result));
  if (stopped_by) {
    // The exception Python raised, with what was done before it.
    stopped_by->value().attr("result") = out;
    throw std::move(*stopped_by);
  }
  return out;
}

// "meshes, textures, ...": the keywords of the rows a batch reads, and of those every conversion reads.
std::string tree_keywords() {
  const OptionSet reads = options_read("tree", ".glb");
  std::string out;
  for (const auto& row : convert_option_rows())
    if (reads.test(convert_option_index(row)) || row.reads.empty()) out += (out.empty() ? "" : ", ") + option_keyword(row);
  return out;
}

std::string convert_tree_doc() {
  return "convert_tree(input_dir, output_dir, *, jobs=0, progress=None, **options) -> TreeResult\n\n"
         "`boneyard convert --recursive input_dir -o output_dir -j jobs`: every .ogf under input_dir with the motions\n"
         "its refs name and every .omf no model refers to, each to a .glb under output_dir, on `jobs` threads (0: all\n"
         "cores). Options: " + tree_keywords() + " (motions: a list of globs).\n"
         "A file that fails does not stop the others: see each TreeItem. `progress(done, total, item)` is called in\n"
         "this thread after each file. Ctrl-C stops the batch after the files in progress (no temporary file is\n"
         "left) and raises KeyboardInterrupt, whose `result` is the TreeResult so far; an exception from `progress`\n"
         "stops it the same way. Raises UsageError for an option a batch does not read or an input that is not a\n"
         "folder, before anything is read.";
}

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<BatchItem>(m, "TreeItem", "One file of convert_tree().")
      .def_property_readonly("input", [](const BatchItem& i) { return fs_name(path_to_utf8(i.input)); })
      .def_property_readonly("output", [](const BatchItem& i) { return fs_name(path_to_utf8(i.output)); },
                             "Where it was (or would have been) written")
      .def_property_readonly("status", [](const BatchItem& i) { return std::string(status_word(i.status)); },
                             "\"converted\", \"warnings\", \"failed\" or \"interrupted\" (not converted: the batch "
                             "was stopped first; nothing of it was written)")
      .def_readonly("findings", &BatchItem::findings, "Its warnings, after the error when it failed")
      .def_property_readonly("error",
                             [](const BatchItem& i) -> py::object {
                               if (i.status != BatchItem::Status::failed || i.findings.empty()) return py::none();
                               return py::cast(i.findings.front());
                             },
                             "The Finding that stopped it when it failed, else None")
      .def("__repr__", [](const BatchItem& i) {
        return lenient_text("<boneyard.TreeItem " + path_to_utf8(i.input) + ": " + status_word(i.status) + ">");
      });

  py::class_<BatchResult>(m, "TreeResult", "What convert_tree() did: one TreeItem per file, and the counts.")
      .def_readonly("items", &BatchResult::items, "One TreeItem per input file, sorted by path")
      .def_readonly("converted", &BatchResult::converted, "Files converted without a warning")
      .def_readonly("with_warnings", &BatchResult::with_warnings, "Files converted with warnings")
      .def_readonly("failed", &BatchResult::failed, "Files that failed (each alone; nothing of them is written)")
      .def_readonly("not_converted", &BatchResult::not_converted, "Files left when the batch was interrupted")
      .def_property_readonly("interrupted", [](const BatchResult& r) { return r.interrupt_signal != 0; },
                             "True when Ctrl-C (or an exception from `progress`) stopped the batch")
      .def("__repr__", [](const BatchResult& r) {
        return "<boneyard.TreeResult " + std::to_string(r.converted) + " converted, " +
               std::to_string(r.with_warnings) + " with warnings, " + std::to_string(r.failed) + " failed (of " +
               std::to_string(r.items.size()) + ")" +
               (r.interrupt_signal != 0 ? ", interrupted: " + std::to_string(r.not_converted) + " not converted" : "") +
               ">";
      });

  m.def(
      "convert_tree",
      [](const py::object& input_dir, const py::object& output_dir, unsigned jobs, const py::object& progress,
         const py::kwargs& kwargs) {
        BatchOptions o;
        const std::string input = path_from(input_dir);
        o.input_dir = path_from_utf8(input);
        o.output_dir = path_from_utf8(path_from(output_dir));
        o.threads = jobs;
        OptionSet given;
        read_convert_keywords(kwargs, true, o.settings, given);
        if (auto checked = check_batch_request(o, given); !checked) raise_finding(checked.error(), input);
        if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
          throw py::type_error("convert_tree(): progress must be callable as progress(done, total, item)");
        return run_tree(o, progress);
      },
      py::arg("input_dir"), py::arg("output_dir"), py::kw_only(), py::arg("jobs") = 0u,
      py::arg("progress") = py::none(), convert_tree_doc().c_str());
}

}  // namespace boneyard::python
