#if canImport(Glibc)
import Glibc
#endif

/// How a child ended, as `wait4` reported it, with the child's own resource usage.
public struct Termination: Sendable, Equatable {
    /// The exit code, or 128 + the signal when a signal ended it (the shell's convention).
    public var exitCode: Int32
    /// The signal that ended the child, if one did.
    public var signal: Int32?
    /// The wait gave up at its deadline and killed the child.
    public var timedOut: Bool
    /// The wait was told to stop (an interrupt) and killed the child.
    public var stopped: Bool
    /// Seconds from spawn to reaping.
    public var wallSeconds: Double
    public var userSeconds: Double
    public var systemSeconds: Double
    /// `ru_maxrss` in bytes.
    public var peakRSSBytes: Int64

    public var succeeded: Bool { signal == nil && exitCode == 0 && !timedOut && !stopped }

    /// The status as the runner's logs have always shown it: the exit code, or minus the signal.
    public var status: Int32 { signal.map { -$0 } ?? exitCode }

    init(status: Int32, usage: rusage, wallSeconds: Double, timedOut: Bool, stopped: Bool) {
        let termination = status & 0x7f
        signal = termination == 0 ? nil : termination
        exitCode = termination == 0 ? (status >> 8) & 0xff : 128 + termination
        self.timedOut = timedOut
        self.stopped = stopped
        self.wallSeconds = wallSeconds
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        userSeconds = seconds(usage.ru_utime)
        systemSeconds = seconds(usage.ru_stime)
        #if os(Linux)
        peakRSSBytes = Int64(usage.ru_maxrss) * 1024
        #else
        peakRSSBytes = Int64(usage.ru_maxrss)
        #endif
    }
}
