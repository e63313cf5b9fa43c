# The job of "redlock run" (Job.java starts LIFELINE.PL+THIS with PerlBinary.process: LIFELINE GRACE_MS COMMAND
# [ARGUMENT...]).
#
# 1. It makes a new session, so COMMAND and everything COMMAND forks share one process group, led by this pid:
#    redlock stops the job by signalling that group, and releases the lock only once the group is empty.
# 2. It starts a watcher, outside the job's group and outside its ancestry, holding the read end of LIFELINE
#    (lifeline.pl). When redlock dies, or stalls past the lock's expiry, the watcher sends SIGTERM to the job's group,
#    SIGKILL after GRACE_MS, and exits; when redlock says "done" (it stopped the job itself), it just exits.
# 3. It becomes COMMAND (exec, same pid), or exits as a shell would if COMMAND cannot be started: 126 if it is
#    there but cannot be run (not executable, a directory, not a program), 127 otherwise (not found).
my ($lifeline, $grace_ms, @command) = @ARGV;
POSIX::setsid() or die "redlock: cannot start a session for the job: $!\n";
my $group = $$;
my $line = open_lifeline($lifeline);

my $first = fork() // die "redlock: cannot fork the watcher: $!\n";
if ($first == 0) {
    my $watcher = fork() // POSIX::_exit(1);
    POSIX::_exit(0) if $watcher;    # the watcher is re-parented: the job never sees it as a child
    detach("redlock run watcher");  # and signals to the job's group do not reach it
    unlink $lifeline;
    stop_group(watch($line));
    POSIX::_exit(0);
}
waitpid($first, 0);
close($line);
{ no warnings 'exec'; exec { $command[0] } @command; }
my $cannot_run = $!{EACCES} || $!{ENOEXEC} || $!{EISDIR};
print STDERR "redlock: cannot start $command[0]: $!\n";
POSIX::_exit($cannot_run ? 126 : 127);

sub stop_group {
    my ($why) = @_;
    return unless kill 0, -$group;
    print STDERR "redlock: $why; sent SIGTERM to the command's process group (SIGKILL in ${grace_ms}ms)\n";
    kill 'TERM', -$group;
    for (my $waited = 0; $waited < $grace_ms && kill(0, -$group); $waited += 20) {
        select(undef, undef, undef, 0.02);
    }
    kill 'KILL', -$group;
}
