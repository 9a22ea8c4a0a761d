package dev.pigeonhole.archfixture.inwards.domain.service;

import dev.pigeonhole.archfixture.inwards.domain.port.out.Things;

public record ThingService(Things things) {
}
