package io.pylon.bench.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring Cloud Gateway with the one route of application.yml; bench/worker/peers.sh starts it beside the Worker. */
@SpringBootApplication
public class GatewayBenchApplication {
    public static void main(String[] args) {
        SpringApplication.run(GatewayBenchApplication.class, args);
    }
}
