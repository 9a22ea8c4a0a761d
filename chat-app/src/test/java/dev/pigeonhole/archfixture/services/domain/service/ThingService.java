package dev.pigeonhole.archfixture.services.domain.service;

public class ThingService {
}
