package io.pylon.worker.conformance;

import io.pylon.worker.testing.Gateway;
import io.pylon.worker.testing.LogCapture;
import io.pylon.worker.testing.Nginx;
import io.pylon.worker.testing.ScriptedUpstream;

import java.net.URI;
import java.util.Map;
import java.util.logging.Level;

/**
 * One scripted upstream behind a real nginx configured as an operator fronts an API (an {@code upstream} block with
 * keep-alive connections; {@code location /} with {@code proxy_http_version 1.1}, {@code Connection ""} and buffering
 * off, after whatever server lines a test adds) and behind a Worker pod with the test's routes; the Worker's SEVERE
 * log lines are captured. Fails first, naming nginx, when nginx is missing.
 */
final class NginxBeside implements AutoCloseable {
    final LogCapture severe;
    final ScriptedUpstream upstream;
    final Nginx nginx;
    final Gateway gateway;
    final int workerPort;

    private NginxBeside(LogCapture severe, ScriptedUpstream upstream, Nginx nginx, Gateway gateway) {
        this.severe = severe;
        this.upstream = upstream;
        this.nginx = nginx;
        this.gateway = gateway;
        this.workerPort = URI.create(gateway.url("/")).getPort();
    }

    /**
     * @param serverLines nginx server lines before {@code location /}
     * @param routes      the Worker's routes file, {@code %1$s} standing for the upstream's URL
     */
    static NginxBeside start(String podName, String serverLines, String routes, Map<String, String> settings)
            throws Exception {
        Nginx.binary();
        LogCapture severe = LogCapture.open(Level.SEVERE);
        ScriptedUpstream upstream = ScriptedUpstream.start();
        Nginx nginx = Nginx.start("""
                    upstream api {
                        server 127.0.0.1:%d;
                        keepalive 16;
                    }
                """.formatted(upstream.port()), serverLines + """
                        location / {
                            proxy_pass http://api;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            proxy_buffering off;
                            proxy_request_buffering off;
                        }
                """);
        Gateway gateway = Gateway.start(podName, routes.formatted(upstream.url()), settings);
        return new NginxBeside(severe, upstream, nginx, gateway);
    }

    @Override
    public void close() throws Exception {
        gateway.close();
        nginx.close();
        upstream.close();
        severe.close();
    }
}
