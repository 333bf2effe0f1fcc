package io.pylon.core.health;

public enum HealthStatus {
    UP, DOWN
}
