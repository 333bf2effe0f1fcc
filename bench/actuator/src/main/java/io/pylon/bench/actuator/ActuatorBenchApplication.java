package io.pylon.bench.actuator;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The smallest Spring Boot application with Actuator: web and actuator starters, their defaults, nothing else. It
 * serves {@code /actuator/health} (ping and disk-space checks) for bench/actuator/run.sh to compare with the Worker's
 * health endpoint.
 */
@SpringBootApplication
public class ActuatorBenchApplication {
    public static void main(String[] args) {
        SpringApplication.run(ActuatorBenchApplication.class, args);
    }
}
