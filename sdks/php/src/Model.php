<?php

namespace Crm;

/**
 * The base of every model (Crm\Model\Lead, …). Generated subclasses declare the API's fields as typed
 * public properties with the API's snake_case names, and in types() which fields hold models.
 * Fields the SDK does not know yet stay readable through toArray().
 */
abstract class Model implements \JsonSerializable
{
    /** @var array<string, mixed> the decoded JSON as received */
    private array $rawValues = [];
    private ?ApiResponse $lastResponse = null;

    /**
     * Field => model class, or [model class] for a list of models.
     *
     * @return array<string, class-string<Model>|array{class-string<Model>}>
     */
    protected static function types(): array
    {
        return [];
    }

    /** @param array<string, mixed> $values */
    public static function constructFrom(array $values, ?ApiResponse $response = null): static
    {
        $model = new static();
        $model->rawValues = $values;
        $model->lastResponse = $response;
        $types = static::types();
        foreach ($values as $name => $value) {
            if (!is_string($name) || !property_exists($model, $name)) {
                continue;
            }
            $type = $types[$name] ?? null;
            if ($type !== null && is_array($value)) {
                $value = is_array($type)
                    ? array_map(static fn ($item) => is_array($item) ? $type[0]::constructFrom($item) : $item, $value)
                    : $type::constructFrom($value);
            }
            $model->$name = $value;
        }
        return $model;
    }

    /** The HTTP response this object came from (status, headers, request id, rate-limit fields). */
    public function getLastResponse(): ?ApiResponse
    {
        return $this->lastResponse;
    }

    /** @return array<string, mixed> the object as the API sent it */
    public function toArray(): array
    {
        return $this->rawValues;
    }

    public function jsonSerialize(): mixed
    {
        return $this->rawValues;
    }
}
