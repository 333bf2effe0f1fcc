import io.helidon.webserver.WebServer;

/**
 * A bare Helidon SE server (defaults, one GET route answering 4 bytes): the reference bench/worker/stalls.sh measures
 * the Worker's tail against on the same core. Arguments: the address to bind and the port.
 */
public class BareHelidon {
    public static void main(String[] args) throws InterruptedException {
        WebServer.builder()
                .host(args[0])
                .port(Integer.parseInt(args[1]))
                .routing(routing -> routing.get("/ping", (request, response) -> response.send("pong")))
                .build()
                .start();
        Thread.currentThread().join();
    }
}
