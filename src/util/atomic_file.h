// Output and input files for the CLI (issue 9): nothing is ever half-written, nothing that is not a
// regular file is ever replaced, and nothing is left behind.
//
// Writing PATH:
//  - "-": standard output.
//  - an existing character device or FIFO (/dev/null, /dev/stdout, a named pipe), or a symbolic
//    link to one: written through (opened for writing, never replaced). A path that names the
//    process's own stdout/stderr (e.g. /dev/stdout when stdout is redirected to a file) writes to
//    that descriptor.
//  - a regular file, a symbolic link to one (the link's target is replaced, the link is kept), or
//    a new file: written to a fresh temporary file created with mkstemp (O_EXCL) in the target's
//    directory, then renamed over the target. An existing file keeps its permission bits; a new
//    one gets 0666 & ~umask.
//  - anything else (a directory, a block device, a socket, a dangling symbolic link, a new file
//    under /dev or /proc, ""): InputError, nothing written.
// Temporary files are registered with the SIGINT/SIGTERM/SIGHUP/SIGPIPE handler (util/signal_cleanup.h) that unlinks them
// (async-signal-safe) and re-raises, so an interrupted write leaves no temporary file.
//
// Reading PATH: regular files (their size checked against cz::memory_budget() first) and FIFOs
// or pipes (read up to the memory budget); directories, devices and sockets are refused with an
// InputError that says what the path is.
#pragma once
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace cz {

// Throws InputError (where = path) when the file cannot be written.
void write_file_atomic(const std::string& path, const std::string& content);
// The same, with the content produced by `produce` writing into a stream (for large outputs that
// should not be held in memory twice). An exception from `produce` removes the temporary file and
// propagates.
void write_file_atomic_stream(const std::string& path, const std::function<void(std::ostream&)>& produce);

// Several outputs, all or nothing: every regular-file output is written to its temporary file
// first; only when all of them are complete are they renamed into place (then devices/FIFOs and
// stdout are written). On any failure before the renames every temporary file is removed and no
// target is touched. Two outputs that resolve to the same file are refused (InputError).
struct OutputFile {
  std::string path, content;
  std::string flag;  // the option that named it, for messages ("--inputs"); may be empty
};
void write_files_atomic(const std::vector<OutputFile>& outputs);

// Throws InputError (where = path) when the file cannot be read, is not a regular file or a
// FIFO/pipe, or holds more than the memory budget.
std::string read_file(const std::string& path);

// A text input with a size limit of its own (issue 36: a 73 MB model, or `yes | ... --model -`,
// ran out of memory before any check): a regular file larger than max_bytes is refused by its
// size, a pipe or standard input as soon as max_bytes have been read. `what` names the kind in
// messages ("a model-json file"). With json_text, a NUL byte, or a first non-blank byte that no
// JSON document starts with, is refused as soon as it is read (/dev/zero, `yes`), and standard
// input that is not a terminal is read whatever it is (/dev/null: empty).
struct TextLimits {
  std::uint64_t max_bytes;
  std::string what;
  bool json_text = true;
};
std::string read_file(const std::string& path, const TextLimits& limits);

// Identity of a path for "same file" checks: "dev:ino" of the file it resolves to when it exists,
// else the canonical path of its parent directory joined with its name (a not-yet-existing output),
// else the path as given. Two paths naming one file (x.npy, ./x.npy, a symlink to it) compare equal.
std::string file_identity(const std::string& path);
// True when `path` resolves to a regular file or does not exist yet (outputs that are replaced,
// as opposed to written through: "-", devices, FIFOs).
bool is_replaced_output(const std::string& path);

// Refuses (InputError, where = the output's flag and path) an output that cannot be written (a
// directory, a block device, "", ...: see above) or that names the same file as an input or as
// another output. Outputs that are written through (stdout "-", devices, FIFOs)
// are not compared, except that at most one output may be "-" (stdout).
struct NamedPath {
  std::string flag, path;
};
void check_output_paths(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

}  // namespace cz
