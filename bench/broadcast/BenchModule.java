import io.pylon.core.server.ModuleContext;
import io.pylon.core.server.PylonModule;

/** A module serving diagnostics and nothing else: the core's Worker-like pod, for the broadcast benchmark. */
final class BenchModule implements PylonModule {
    public String name() {
        return "worker";
    }

    public String displayName() {
        return "Worker";
    }

    public int defaultPort() {
        return 8091;
    }

    public boolean servesDiagnostics() {
        return true;
    }

    public void start(ModuleContext context) {
    }
}
