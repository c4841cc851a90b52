"""Uses the openai SDK, which the exercise asks to do by hand with httpx."""

import openai


def chat_once(base_url, api_key, model, user_message):
    client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0)
    reply = client.chat.completions.create(model=model, messages=[{"role": "user", "content": user_message}])
    return reply.choices[0].message.content


ARGS = (chat_once,)
FAILS_AT = "不用 SDK"
