// What a process must not leave behind when SIGINT, SIGTERM, SIGHUP or SIGPIPE ends it (issue 9
// for temporary files, issue 25 item 11 for the plot's directory and its python child): one
// handler, installed once, that ends the registered children (SIGKILL, then waits for them so that
// none is still writing), unlinks the registered files, removes the registered directories (after
// the files, so a directory whose files are all registered goes too) and re-raises the signal.
// Only async-signal-safe calls run in the handler (kill, waitpid, unlink, rmdir, raise); the
// tables it reads are fixed arrays written before a slot is marked used.
//
// A signal whose action is not the default when the handler would be installed (SIG_IGN under
// nohup, another library's handler) is left alone.
#pragma once
#include <sys/types.h>

#include <csignal>
#include <string>

namespace cz {

// Installs the handler for the signals above whose action is the default (SIG_DFL) at the call;
// calling it again does nothing unless one was set back to SIG_DFL meanwhile.
void install_cleanup_handlers();

// Blocks those signals for its lifetime, so that creating a file or a child and registering it
// happen together (a signal in between would leave it behind).
class CleanupSignalsBlocked {
 public:
  CleanupSignalsBlocked();
  ~CleanupSignalsBlocked();
  CleanupSignalsBlocked(const CleanupSignalsBlocked&) = delete;
  CleanupSignalsBlocked& operator=(const CleanupSignalsBlocked&) = delete;
  const sigset_t& previous() const { return old_; }  // the mask before (a forked child restores it)

 private:
  sigset_t old_;
};

// A file (dir = false) or a directory (dir = true) removed by the handler. Returns its slot, or -1
// when every slot is taken or the path is too long (the caller decides whether that is fatal).
int register_cleanup_path(const std::string& path, bool dir = false);
void unregister_cleanup_path(int slot);  // -1: nothing
// A directory removed by the handler together with every entry in it (one level: files and
// symlinks, read with getdents64 and unlinked by name, so no slot per file: --proof DIR's
// temporary directory holds two files per solver answer, thousands with cubes). Returns its slot
// or -1, as above; unregister_cleanup_path frees it.
int register_cleanup_dir_with_files(const std::string& path);

// A child process ended (SIGKILL) and reaped by the handler. Returns its slot or -1.
// group = true: the child leads its own process group (setpgid) and the whole group is killed,
// so that the children of a wrapper script (a solver run through a shell) go too (issue 36).
int register_cleanup_child(pid_t pid, bool group = false);
void unregister_cleanup_child(int slot);  // -1: nothing

}  // namespace cz
