package dev.pigeonhole.archfixture.inwards.domain.port.out;

public interface Things {
}
